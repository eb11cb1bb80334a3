import { z } from 'zod';
import { defineTool, textResult } from '../tool.ts';

/** Conformance fixture: sleeps, then answers; ends `cancelled` if cancelled meanwhile. */
export const slowCompute = defineTool({
  name: 'slow_compute',
  title: 'Slow compute',
  description: 'Sleeps for `seconds` and returns. A task when the client declares the tasks extension, an ordinary call otherwise. Honours cancellation.',
  args: z.object({
    seconds: z.number().min(0).max(600).default(3).describe('How long to work, in seconds'),
    label: z.string().optional().describe('A label echoed in the result'),
  }),
  execution: 'task',
  pollIntervalMs: 500,
  run: async ({ args, sleep, report }) => {
    const steps = Math.max(1, Math.ceil(args.seconds));
    for (let i = 0; i < steps && args.seconds > 0; i++) {
      await report(`computing: ${i} of ${steps} s`);
      await sleep((args.seconds * 1000) / steps);
    }
    return textResult(`Computed${args.label ? ` ${args.label}` : ''} in ${args.seconds} s`);
  },
});
