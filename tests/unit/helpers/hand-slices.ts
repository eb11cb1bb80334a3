/**
 * Slices (src/clock/frame-slices.ts) on a hand-stepped clock: time moves only
 * when the work says it took so long (`spend`), a slice ends once it used
 * `budgetMs`, and each later task runs only when the test says (`runLater`).
 * No real time passes.
 */
import type { Slices } from '../../../src/clock/frame-slices.ts';

export function handSlices(budgetMs: number) {
  let now = 0;
  const waiting: (() => void)[] = [];
  const slices: Slices = {
    now: () => now,
    shouldYield: (startedAt) => now - startedAt >= budgetMs,
    later: (callback) => waiting.push(callback),
  };
  return {
    slices,
    /** Time spent by the work running now. */
    spend: (ms: number) => (now += ms),
    /** Later tasks asked for and not run yet. */
    get waiting(): number {
      return waiting.length;
    },
    /** Runs the oldest later task; false when none waits. */
    runLater(): boolean {
      const next = waiting.shift();
      next?.();
      return next !== undefined;
    },
  };
}
