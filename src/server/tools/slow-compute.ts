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
  description:
    'Sleeps for `seconds` and returns, suggesting a poll every `pollIntervalMs`. A task when the client declares the tasks extension, an ordinary call otherwise. Honours cancellation.',
  args: z.object({
    seconds: z.number().min(0).max(600).default(3).describe('How long to work, in seconds'),
    label: z.string().optional().describe('A label echoed in the result'),
    // A playground knob: lets a learner (and `npm run bench`) see the client keep to whatever the server suggests (T12).
    pollIntervalMs: z
      .number()
      .int()
      .min(100)
      .max(10_000)
      .default(500)
      .describe('How often the server asks the client to poll, in ms'),
  }),
  execution: 'task',
  pollIntervalMs: (args) => args.pollIntervalMs,
  resumable: true,
  run: async ({ args, sleep, report, checkpoint, resumeFrom }) => {
    const steps = Math.max(1, Math.ceil(args.seconds));
    const resumed = Progress.safeParse(resumeFrom);
    // Seconds as a learner reads them: "2 of 8 s", "0.5 of 0.5 s" (never "1 of 1 s" for half a second).
    const secondsAfter = (done: number): string =>
      String(Math.round(((args.seconds * done) / steps) * 10) / 10);
    const total = secondsAfter(steps);
    for (let i = resumed.success ? resumed.data.stepsDone : 0; i < steps && args.seconds > 0; i++) {
      await report(`computing: ${secondsAfter(i)} of ${total} s`);
      await sleep((args.seconds * 1000) / steps);
      await checkpoint(
        { stepsDone: i + 1 } satisfies z.infer<typeof Progress>,
        `${secondsAfter(i + 1)} of ${total} s computed`,
      );
    }
    // The last word on progress, so a finished task does not read "computing: 7 of 8 s".
    if (args.seconds > 0) await report(`computed: ${total} of ${total} s`);
    return textResult(`Computed${args.label ? ` ${args.label}` : ''} in ${args.seconds} s`);
  },
});
