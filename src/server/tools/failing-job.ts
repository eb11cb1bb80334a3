import { z } from 'zod';
import { defineTool, textResult } from '../tool.ts';

/** Conformance fixture: the tool runs and reports its own failure, so the task ends `completed` with `isError` (T11). */
export const failingJob = defineTool({
  name: 'failing_job',
  title: 'Failing job',
  description: 'Works for about a second, then reports a tool error. The task still ends completed: the tool ran, it just failed (T11).',
  args: z.object({}),
  execution: 'task-required',
  pollIntervalMs: 250,
  // Resumable: it has no effects, so running it again is harmless.
  resumable: true,
  run: async ({ sleep }) => {
    await sleep(1000);
    return textResult('The job failed: the input file was empty.', true);
  },
});
