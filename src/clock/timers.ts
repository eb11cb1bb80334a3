/**
 * Time as code sees it: a clock and timers in one object, so one object can
 * be swapped for a simulated clock in tests (xstate's `SimulatedClock` fits
 * this shape) or for the page's world clock, which can pause and slow down.
 */
export interface Timers {
  /** Epoch ms (or simulated / world ms). */
  now(): number;
  /** Runs `callback` once after `ms`; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /**
   * Runs `callback` once the current synchronous work is done (a microtask),
   * for work that is due now: no timer, no trip through the event loop. A
   * simulated clock leaves it out, so due-now work waits for the clock like
   * any timer there.
   */
  soon?(callback: () => void): void;
}

/** The browser's (or Node's) clock and timers, looked up on each call (so fake timers in tests apply). */
export const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) =>
    globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  soon: (callback) => queueMicrotask(callback),
};

/**
 * Runs `callback` every `ms` on `timers` (setInterval on any clock): each run is
 * scheduled when the previous one starts, so a paused clock holds the next one.
 * Returns the stop.
 */
export function every(timers: Timers, ms: number, callback: () => void): () => void {
  let handle: unknown;
  let stopped = false;
  const tick = (): void => {
    if (stopped) return;
    handle = timers.setTimeout(tick, ms);
    callback();
  };
  handle = timers.setTimeout(tick, ms);
  return () => {
    stopped = true;
    timers.clearTimeout(handle);
  };
}
