import { z } from 'zod';
import { defineTool, textResult } from '../tool.ts';

/** The checkpoint: how many one-second steps are done. */
const Progress = z.object({ stepsDone: z.number().int().min(0) });

/**
 * Conformance fixture: sleeps, then answers; ends `cancelled` if cancelled
 * meanwhile. Saves a checkpoint after each step, so a fresh worker does only what is left.
 */
export const slowCompute = defineTool({
  name: 'slow_compute',
  title: 'Slow compute',
  description: 'Sleeps for `seconds` and returns, suggesting a poll every `pollIntervalMs`. A task when the client declares the tasks extension, an ordinary call otherwise. Honours cancellation.',
  args: z.object({
    seconds: z.number().min(0).max(600).default(3).describe('How long to work, in seconds'),
    label: z.string().optional().describe('A label echoed in the result'),
    // A playground knob: lets a learner (and `npm run bench`) see the client keep to whatever the server suggests (T12).
    pollIntervalMs: z.number().int().min(100).max(10_000).default(500).describe('How often the server asks the client to poll, in ms'),
  }),
  execution: 'task',
  pollIntervalMs: (args) => args.pollIntervalMs,
  resumable: true,
  run: async ({ args, sleep, report, checkpoint, resumeFrom }) => {
    const steps = Math.max(1, Math.ceil(args.seconds));
    const resumed = Progress.safeParse(resumeFrom);
    for (let i = resumed.success ? resumed.data.stepsDone : 0; i < steps && args.seconds > 0; i++) {
      await report(`computing: ${i} of ${steps} s`);
      await sleep((args.seconds * 1000) / steps);
      await checkpoint({ stepsDone: i + 1 } satisfies z.infer<typeof Progress>, `${i + 1} of ${steps} s computed`);
    }
    // The last word on progress, so a finished task does not read "computing: 7 of 8 s".
    if (args.seconds > 0) await report(`computed: ${steps} of ${steps} s`);
    return textResult(`Computed${args.label ? ` ${args.label}` : ''} in ${args.seconds} s`);
  },
});
