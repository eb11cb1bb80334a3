import { z } from 'zod';
import { defineTool, textResult } from '../tool.ts';

/** Conformance fixture: a plain synchronous tool, never a task. */
export const greet = defineTool({
  name: 'greet',
  title: 'Greet',
  description: 'Says hello at once. Never runs as a task, whatever the client declares.',
  args: z.object({ name: z.string().describe('Who to greet') }),
  execution: 'sync',
  run: async ({ args }) => textResult(`Hello, ${args.name}!`),
});
