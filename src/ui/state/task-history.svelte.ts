/**
 * A followed task's history as the statechart reads it: the steps its actor
 * takes, recorded as they happen, in a `HistoryBrowser` (the cursor, live by
 * default).
 */
import type { TaskActor } from '../../client/task-follower.ts';
import { graphOf } from '../statechart/graph-cache.ts';
import { HistoryBrowser } from './history-browser.svelte.ts';
import { HistoryRecorder, type HistoryStep } from './task-history.ts';

/** Holds the recorded steps so the browser (built first) can read them. */
class StepBox {
  steps = $state.raw<readonly HistoryStep[]>([]);
}

export class TaskHistory extends HistoryBrowser {
  readonly #recorder: HistoryRecorder;

  constructor(actor: TaskActor) {
    const graph = graphOf(actor.logic);
    const box = new StepBox();
    super(graph, () => box.steps);
    this.#recorder = new HistoryRecorder(actor, graph, (steps) => {
      box.steps = steps;
    });
    box.steps = this.#recorder.steps;
  }

  stop(): void {
    this.#recorder.stop();
  }
}
