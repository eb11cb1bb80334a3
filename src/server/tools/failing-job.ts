import { z } from 'zod';
import { defineTool, textResult } from '../tool.ts';

/** Conformance fixture: the tool runs and reports its own failure, so the task ends `completed` with `isError` (T11). */
export const failingJob = defineTool({
  name: 'failing_job',
  title: 'Failing job',
  description:
    'Works for about a second, then reports a tool error. The task still ends completed: the tool ran, it just failed (T11).',
  // The reason is echoed in the error text, so a test can put any string into a tool error.
  args: z.object({
    reason: z.string().default('the input file was empty').describe('Why the job says it failed'),
  }),
  execution: 'task-required',
  pollIntervalMs: 250,
  // Resumable: it has no effects, so running it again is harmless.
  resumable: true,
  run: async ({ args, sleep }) => {
    await sleep(1000);
    return textResult(`The job failed: ${args.reason}.`, true);
  },
});
