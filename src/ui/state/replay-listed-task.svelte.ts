/**
 * A task's place in the replay's task list: one object per task for the
 * whole replay, so the card window (`card-window.svelte.ts`, the live list's
 * own) keeps its measured height and its drawn card from one moment to the
 * next, and a seek updates the cards drawn instead of making every card
 * anew. What the task is at the slider's moment (`now`) is derived on
 * reading, so only the cards drawn (and the open detail) pay for a seek:
 * a run's thousand tasks cost a thousand nothings.
 */
import { ReplayTask, type ReplayMoment } from './replay-task.svelte.ts';

export class ReplayListedTask {
  readonly taskId: string;
  readonly #moment: () => ReplayMoment;
  readonly #now = $derived.by(() => {
    const at = this.#moment();
    const task = at.index.taskAt(this.taskId, at.n);
    return task && new ReplayTask(task, at);
  });

  /** `moment` is reactive: the replay's moment, read again when it changes. */
  constructor(taskId: string, moment: () => ReplayMoment) {
    this.taskId = taskId;
    this.#moment = moment;
  }

  /** The task at the replay's moment; undefined before the recording met it. */
  get now(): ReplayTask | undefined {
    return this.#now;
  }
}
