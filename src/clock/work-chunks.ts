/**
 * Slices cut by how much work was done, not by how long it took: a round of
 * due timers or a batch of a port's answers runs at most `perTask` items in
 * one task, and the rest goes on in a later task, in order. Each task is
 * then bounded by the work it must do now, however much piled up.
 *
 * Why a count and not a clock: a slice cut by wall time (frame-slices.ts)
 * does less work on a loaded machine, where the thread is taken away in the
 * middle of a slice, for the same cost per cut (a task switch, the Svelte
 * flush and the port batch its microtasks make); a count keeps the work per
 * cut the same whatever the load. And the time a slice measures misses the
 * microtasks its items leave (each answer is handled in a promise
 * continuation, after the slice's loop): a count bounds those too, as each
 * item leaves about the same.
 *
 * The rest goes on in a task the browser runs ahead of drawing where it can
 * (`scheduler.postTask` at `user-blocking`, as frame-slices.ts measured): a
 * cut lets other tasks in (a port's message, input) but pays for no extra
 * frame, which is what made frame-driven slices cost throughput.
 */
import type { Slices } from './frame-slices.ts';

/** Cuts work after `perTask` items; `later` runs the rest in a later task (the page: ahead of drawing). */
export function workChunks(perTask: number, later: (callback: () => void) => void): Slices {
  const size = Math.max(1, Math.floor(perTask));
  return {
    // No clock: a chunk is measured in items done.
    now: () => 0,
    shouldYield: (_startedAt, done) => done >= size,
    later,
  };
}
