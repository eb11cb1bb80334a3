/**
 * Performance marks for the bench (scripts/bench/resume.ts): the restore
 * after a load starts at `playground:restore-start` and ends, every stored
 * task carried on, at `playground:tasks-resumed` (detail: the count). Read
 * from the session's events, so the session itself measures nothing.
 */
import type { PageSession } from './page-session.ts';

export const RESTORE_START_MARK = 'playground:restore-start';
export const TASKS_RESUMED_MARK = 'playground:tasks-resumed';

/** Marks each restore of `session` on the page's performance timeline; returns the unsubscribe. */
export function markRestoreForBench(session: PageSession): () => void {
  const stops = [
    session.on('restore-started', () => performance.mark(RESTORE_START_MARK)),
    session.on('tasks-resumed', ({ count }) =>
      performance.mark(TASKS_RESUMED_MARK, { detail: { count } }),
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
