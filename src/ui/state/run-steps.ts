/**
 * The run recorder's view of a task's machine steps: the very steps the
 * history view shows (the actor's shared `HistoryRecorder`), handed on one
 * at a time: each step is worked out once for both.
 */
import type { TaskActor } from '../../client/task-follower.ts';
import type { RunTaskStep } from '../../record/run-events.ts';
import { historyOf } from './task-history.ts';

/** Calls `onStep` with `actor`'s newest step now, then with each it takes; returns the stop. */
export function watchTaskSteps(actor: TaskActor, onStep: (step: RunTaskStep) => void): () => void {
  const recorder = historyOf(actor);
  const latest = recorder.latest;
  if (latest) onStep(latest);
  return recorder.onStep(onStep);
}
