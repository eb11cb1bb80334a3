/**
 * A job's take-over in words, for its card: "node 3 carried the job on from
 * checkpoint 4 of 6 stages done after node 1 died". Only between two named
 * cluster nodes (runner ids `node N/…`): a single worker's restart is told
 * by the card's "resumed by a fresh worker" already.
 */
import type { JobProgress } from '../protocol/job-progress.ts';

const NODE = /^node ([1-9]\d*)\//;

/** `node 3` for a runner id `node 3/ab12cd34`; undefined for an unnamed runner. */
export function nodeOfRunner(runner: string | undefined): string | undefined {
  const match = runner === undefined ? null : NODE.exec(runner);
  return match ? `node ${match[1]}` : undefined;
}

export function takeoverText(progress: JobProgress | undefined): string | undefined {
  const takeover = progress?.takeover;
  const by = nodeOfRunner(takeover?.by);
  const from = nodeOfRunner(takeover?.from);
  if (!takeover || !by || !from || by === from) return undefined;
  const where = takeover.checkpoint
    ? `from checkpoint ${takeover.checkpoint}`
    : 'from the start (no checkpoint was saved)';
  return `${by} carried the job on ${where} after ${from} died (its lease ran out)`;
}
