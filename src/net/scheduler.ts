/**
 * Time, as the network layer and the client see it: a clock and timers in
 * one object, so tests drive everything with one simulated clock (xstate's
 * `SimulatedClock` fits this shape) and the page uses the real one.
 */
export interface Scheduler {
  /** Epoch ms (or simulated ms in tests). */
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

/** The browser's (or Node's) clock and timers. */
export const realScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) =>
    globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  soon: (callback) => queueMicrotask(callback),
};
