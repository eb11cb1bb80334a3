/**
 * A followed task's progress: what changes on every poll (the poll count,
 * the schedule, the server's latest report with its progress text). Kept
 * apart from the task's own record, every task's in one record written at
 * most once a second, so a thousand polling tasks cost one write a second
 * rather than a thousand (see the README). A reload reads both and lays the
 * progress over the record it is newer than ({@link withProgress}).
 */
import type { DetailedTask } from '../protocol/task.ts';
import type { StoredTask } from './page-store.ts';

/** One task's progress, as the journal last wrote it. */
export interface StoredProgress {
  /**
   * The journal's count of writes when this was written (see
   * `StoredTask.revision`): newer than the task's record only if larger.
   */
  revision: number;
  polls: number;
  /** Epoch ms when the next tasks/get was due (T12); absent while one was out. */
  nextPollAt?: number;
  /** The server's last report (T6, T10). */
  task: DetailedTask;
}

/** Every task's progress by taskId: the one record the store keeps them in. */
export type ProgressRecord = ReadonlyMap<string, StoredProgress>;

/**
 * The task as a reload finds it: its record, with the progress laid over it
 * when the progress was written after the record (a larger revision; a
 * record from before revisions counts as 0). A task that ended keeps its
 * record: its outcome and last report were written as it ended, and it has
 * no schedule. Progress was never the page's last word, so `keptAtClose`
 * goes: a stale schedule waits a whole interval (T12).
 */
export function withProgress(record: StoredTask, progress: StoredProgress | undefined): StoredTask {
  if (!progress || record.outcome || progress.revision <= (record.revision ?? 0)) return record;
  const { keptAtClose: _last, nextPollAt: _schedule, ...facts } = record;
  return {
    ...facts,
    revision: progress.revision,
    // Two tabs following one task count apart: neither count goes back.
    polls: Math.max(record.polls, progress.polls),
    ...(progress.nextPollAt !== undefined ? { nextPollAt: progress.nextPollAt } : {}),
    // Another tab's record may hold a newer report than this tab's progress (T6).
    task: newerReport(record.task, progress.task),
  };
}

/** The later of two reports of one task, by the server's `lastUpdatedAt`; `b` on a tie. */
function newerReport(a: DetailedTask, b: DetailedTask): DetailedTask {
  return Date.parse(a.lastUpdatedAt) > Date.parse(b.lastUpdatedAt) ? a : b;
}

/**
 * The stored progress with `written` laid over it, and without the tasks in
 * `deleted`. What this tab writes is its latest word on its own tasks; the
 * tasks only another tab follows keep what that tab wrote.
 */
export function mergeProgress(
  stored: ProgressRecord | undefined,
  written: ProgressRecord,
  deleted: readonly string[] = [],
): Map<string, StoredProgress> {
  const merged = new Map(stored);
  for (const [taskId, progress] of written) merged.set(taskId, progress);
  for (const taskId of deleted) merged.delete(taskId);
  return merged;
}
