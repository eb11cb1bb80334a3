/**
 * A followed task's history as the statechart reads it: the steps its actor
 * takes, recorded as they happen (the actor's shared `HistoryRecorder`), in
 * a `HistoryBrowser` (the cursor, live by default).
 *
 * A step is an update only while something on screen reads the history
 * (the task's detail is open): with a thousand tasks polled, a rune written
 * per step of every task cost a Svelte batch per step for nothing drawn.
 *
 * And at most once per animation frame, in the same frame callback as the
 * task's snapshot (`perFrame`): the chart's highlighted states and the
 * snapshot drawn beside them then always come from the same moment, never a
 * step apart for a frame.
 */
import { createSubscriber } from 'svelte/reactivity';
import type { TaskActor } from '../../client/task-follower.ts';
import { HistoryBrowser } from './history-browser.svelte.ts';
import { oncePerFrame } from './per-frame.ts';
import { historyOf } from './task-history.ts';

export class TaskHistory extends HistoryBrowser {
  constructor(actor: TaskActor) {
    const recorder = historyOf(actor);
    const watch = createSubscriber((update) => {
      const frame = oncePerFrame(update);
      const stop = recorder.onStep(() => frame.request());
      return () => {
        stop();
        frame.cancel();
      };
    });
    super(recorder.graph, () => {
      watch();
      return recorder.steps;
    });
  }
}
