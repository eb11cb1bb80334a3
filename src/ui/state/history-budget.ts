/**
 * How many steps each task's history keeps: a share of one budget for the
 * whole page, not a fixed number per task.
 *
 * Why: a history is a step per event, two per poll, so a thousand tasks
 * polled every 250 ms record 8,000 steps a second. With a fixed 400 kept per
 * task (and up to twice that before a trim), the page's live heap after a
 * forced GC grew from 87 MB at 20 s to 242 MB at 180 s of following them:
 * the steps were most of it, and each major GC has to mark every one, in a
 * task the page cannot draw through. With one budget, the live steps stop
 * growing once the budget is shared out, whatever the number of tasks.
 *
 * A learner's page (up to `total / most` tasks, 250 with the defaults) keeps
 * the full `most` for each; past that each keeps `total / tasks`, never
 * under `least`. The tasks counted are the recorders whose actor is still
 * alive: a recorder leaves the count when it is stopped or collected with
 * its actor (a dismissed task).
 */

/** Steps a task's history keeps when few tasks share the budget: several minutes of polling. */
export const HISTORY_LIMIT = 400;
/** Steps the page's histories keep in all (about 21 MB of steps), shared out by task. */
export const PAGE_STEP_BUDGET = 100_000;
/** The fewest a history keeps however many tasks there are: a couple of dozen polls to step through. */
export const HISTORY_FLOOR = 50;

export class HistoryBudget {
  readonly total: number;
  readonly most: number;
  readonly least: number;
  #members = 0;
  /** A member collected without being released (its actor is gone) leaves the count. */
  readonly #collected = new FinalizationRegistry<undefined>(() => this.#members--);

  constructor(total = PAGE_STEP_BUDGET, most = HISTORY_LIMIT, least = HISTORY_FLOOR) {
    this.least = Math.max(1, Math.floor(least));
    this.most = Math.max(this.least, Math.floor(most));
    this.total = Math.max(this.least, Math.floor(total));
  }

  /** Histories sharing the budget now. */
  get members(): number {
    return this.#members;
  }

  /** Steps each history keeps now. */
  get share(): number {
    const even = Math.floor(this.total / Math.max(1, this.#members));
    return Math.min(this.most, Math.max(this.least, even));
  }

  /** Counts `member` until it is collected or the returned release is called (once is enough). */
  join(member: object): () => void {
    this.#members++;
    const token = {};
    this.#collected.register(member, undefined, token);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#collected.unregister(token);
      this.#members--;
    };
  }
}

/** The page's one budget, shared by every history `historyOf` starts. */
export const pageHistoryBudget = new HistoryBudget();
