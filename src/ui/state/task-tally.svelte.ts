/**
 * Counts over every followed task, kept from their changes rather than
 * walked: "Clear finished" needs how many tasks are done, and the card
 * window which tasks ask for input (T14). Read by walking the list, each
 * flush of a burst of N calls re-read N flags (O(N^2) for the burst); here
 * each task is watched by one small effect that runs when its flag flips
 * (a task finishes once), so a new task or a poll costs O(1).
 */
import { untrack } from 'svelte';
import { SvelteSet } from 'svelte/reactivity';

/** The two flags a task's card state (`FollowedTask`) selects apart, so they update only when they flip. */
export interface TalliedTask {
  readonly done: boolean;
  readonly asksForInput: boolean;
}

interface Watch {
  stop: () => void;
  done: boolean;
}

export class TaskTally<T extends TalliedTask> {
  #finished = $state(0);
  readonly #askers = new SvelteSet<T>();
  readonly #watched = new Map<T, Watch>();

  /** How many listed tasks are done (an outcome reached, or no longer followed). */
  get finished(): number {
    return this.#finished;
  }

  /** The listed tasks asking for input now (live: reading it tracks its changes). */
  get askers(): ReadonlySet<T> {
    return this.#askers;
  }

  /**
   * The list changed: watches the tasks that joined and lets go of those that
   * left. Plain set work over the list, no reactive read per task.
   */
  follow(tasks: readonly T[]): void {
    const present = new Set(tasks);
    for (const [task, watch] of this.#watched) {
      if (present.has(task)) continue;
      watch.stop();
      this.#watched.delete(task);
      if (watch.done) this.#finished--;
      this.#askers.delete(task);
    }
    for (const task of tasks) if (!this.#watched.has(task)) this.#watch(task);
  }

  /** Stops watching every task (the page goes away). */
  stop(): void {
    this.follow([]);
  }

  #watch(task: T): void {
    const watch: Watch = { stop: () => {}, done: false };
    watch.stop = $effect.root(() => {
      $effect(() => {
        const done = task.done;
        const asks = task.asksForInput;
        untrack(() => {
          if (done !== watch.done) {
            watch.done = done;
            this.#finished += done ? 1 : -1;
          }
          if (asks) this.#askers.add(task);
          else this.#askers.delete(task);
        });
      });
    });
    this.#watched.set(task, watch);
  }
}
