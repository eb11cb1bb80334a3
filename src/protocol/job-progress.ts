/**
 * How this playground's server tells a client about a task's durable job:
 * its last checkpoint and how often a fresh worker took it over. Not part of
 * the Tasks extension: MCP lets any result carry `_meta`, under a key
 * prefixed with its owner, so `tasks/get` carries it under {@link JOB_PROGRESS_META}.
 */
import { z } from 'zod';

export const JOB_PROGRESS_META = 'mcp-tasks-playground/job';

export const JobProgressSchema = z.object({
  /** The job's last saved progress, in words. */
  checkpoint: z.object({ label: z.string(), savedAt: z.string() }).optional(),
  /** How many times a fresh worker carried the job on after the one running it stopped. */
  resumes: z.number().int().nonnegative(),
  /**
   * The last take-over: the runner that carried the job on (`by`), the one whose lease ran out
   * (`from`), and the checkpoint it carried on from. Runner ids name a cluster node first
   * (`node 3/ab12cd34`).
   */
  takeover: z
    .object({
      by: z.string().max(200),
      from: z.string().max(200).optional(),
      checkpoint: z.string().max(500).optional(),
    })
    .optional(),
});
export type JobProgress = z.infer<typeof JobProgressSchema>;

/**
 * Verdicts by report: a report is never changed once received, and a card
 * reads its job progress on every redraw (each a parse), so each report is
 * parsed once.
 */
const verdicts = new WeakMap<object, JobProgress | undefined>();

/** Reads the job progress a task report carries, if any; anything malformed reads as none. */
export function jobProgressOf(task: Record<string, unknown>): JobProgress | undefined {
  const meta = task['_meta'];
  if (typeof meta !== 'object' || meta === null) return undefined;
  if (verdicts.has(task)) return verdicts.get(task);
  const parsed = JobProgressSchema.safeParse((meta as Record<string, unknown>)[JOB_PROGRESS_META]);
  const progress = parsed.success ? parsed.data : undefined;
  verdicts.set(task, progress);
  return progress;
}
