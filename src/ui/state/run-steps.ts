/**
 * The run recorder's view of a task's machine steps: the same steps the
 * history view records (XState inspection), handed on one at a time.
 */
import type { TaskActor } from '../../client/task-follower.ts';
import type { RunTaskStep } from '../../record/run-events.ts';
import { graphOf } from '../statechart/graph-cache.ts';
import { HistoryRecorder } from './task-history.ts';

/** Calls `onStep` with each step `actor` takes, its first one too; returns the stop. */
export function watchTaskSteps(actor: TaskActor, onStep: (step: RunTaskStep) => void): () => void {
  // Only the newest step is handed on: keeping one (not the history view's 400) spares a copy per step.
  const recorder = new HistoryRecorder(
    actor,
    graphOf(actor.logic),
    (steps) => {
      const step = steps.at(-1);
      if (step) onStep(step);
    },
    1,
  );
  return () => recorder.stop();
}
