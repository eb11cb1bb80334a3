/**
 * Work spread over frames, so no frame holds the main thread for long: a
 * seek changes every drawn card at once, and redrawing one card's timeline
 * (a mark per message) costs tens of milliseconds, so each card catches up
 * in a coming frame instead of all of them in the frame of the seek. Each
 * tick runs the oldest work waiting, at least one piece, and more while
 * the tick has spent less than its budget.
 *
 * Work is asked for by key (a card), and asking again before it ran
 * replaces it but keeps its place in the queue: a drag that asks every
 * card again each frame still brings every card up in turn, the oldest
 * first, never the first card over and over.
 */
import type { Ticker } from './replay-player.ts';

/** Milliseconds of staggered work a tick may run after its first piece: half a frame. */
export const STAGGER_BUDGET_MS = 8;

export class FrameStagger {
  readonly #ticker: Ticker;
  readonly #budgetMs: number;
  readonly #waiting = new Map<object, () => void>();
  #cancel: (() => void) | undefined;

  constructor(ticker: Ticker, budgetMs = STAGGER_BUDGET_MS) {
    this.#ticker = ticker;
    this.#budgetMs = budgetMs;
  }

  /** Runs `work` at a coming tick, in place of any work for `key` not run yet. */
  request(key: object, work: () => void): void {
    this.#waiting.set(key, work);
    this.#cancel ??= this.#ticker.later(() => this.#tick());
  }

  /** Drops the work waiting for `key`, if any (its card went away, or needs nothing now). */
  cancel(key: object): void {
    this.#waiting.delete(key);
  }

  /** How many pieces of work wait. */
  get waiting(): number {
    return this.#waiting.size;
  }

  /** Drops all the work waiting; the stagger is not used again. */
  close(): void {
    this.#waiting.clear();
    this.#cancel?.();
    this.#cancel = undefined;
  }

  #tick(): void {
    this.#cancel = undefined;
    const started = this.#ticker.now();
    for (const [key, work] of this.#waiting) {
      this.#waiting.delete(key);
      work();
      if (this.#ticker.now() - started >= this.#budgetMs) break;
    }
    if (this.#waiting.size > 0) this.#cancel = this.#ticker.later(() => this.#tick());
  }
}
