import { z } from 'zod';
import { ElicitResultSchema } from '../../protocol/elicitation.ts';
import { defineTool, textQuestion, textResult } from '../tool.ts';

/**
 * Conformance fixture for T16: the name is asked before the task exists,
 * with `resultType: "input_required"` on the `tools/call` itself; the retry
 * carrying the answer gets a task whose result contains it.
 */
export const testToolWithTask = defineTool({
  name: 'test_tool_with_task',
  title: 'Ask first, then run as a task',
  description:
    'Asks for your name on the tools/call itself (multi-round-trip input_required), then runs as a task that greets you (T16).',
  args: z.object({}),
  execution: 'task-required',
  pollIntervalMs: 250,
  // Not resumable: the answer given before the task existed (T16) is handed to
  // the job and never stored, so a fresh worker could not run it again.
  resumable: false,
  preTaskInput: {
    user_name: textQuestion('What is your name?', 'name', 'Name'),
  },
  run: async ({ preTaskInput, sleep }) => {
    await sleep(300);
    const answer = ElicitResultSchema.safeParse(preTaskInput['user_name']);
    const name =
      answer.success && answer.data.action === 'accept'
        ? String(answer.data.content?.['name'] ?? 'stranger')
        : 'stranger';
    return textResult(`Hello, ${name}! This greeting ran as a task.`);
  },
});
