/**
 * The header's words for world time against wall time. Once the world has
 * been paused (or slowed) it stays behind the wall clock for good: every
 * timer goes on with the time it had left, so nothing catches up. Two clock
 * times side by side ("world 14:03:07.1 / wall 14:03:19.4") left a reader
 * to do the sum, and looked like a state still on after Resume; the gap in
 * words ("world 12 s behind wall") says what it means, and the two clock
 * times stay in the tooltip.
 *
 * Tested in Node (`tests/unit/ui/world-lag.test.ts`).
 */

/**
 * A gap under this is world time running with wall time: nothing is shown. A tenth of a second,
 * the least the words can say: at 50 ms a gap of 50–99 ms read "world 0.0 s behind wall".
 */
export const SAME_WITHIN_MS = 100;

export interface WorldLag {
  /** "12 s", "2.4 s", "3 min 5 s": how far apart. */
  readonly amount: string;
  /** Which way: world time is behind wall time (paused, slowed) or ahead of it (sped up). */
  readonly way: 'behind' | 'ahead of';
  /** The whole sentence, as a screen reader reads it: "world 12 s behind wall". */
  readonly words: string;
}

/** A gap in a few characters: tenths under 10 s, whole seconds under a minute, then minutes (and hours). */
export function gapWords(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 10) return `${(Math.floor(seconds * 10) / 10).toFixed(1)} s`;
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    const rest = Math.floor(seconds - minutes * 60);
    return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  const rest = minutes - hours * 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/** How far world time is from wall time, or nothing while they agree (within {@link SAME_WITHIN_MS}). */
export function worldLag(world: number, wall: number): WorldLag | undefined {
  const gap = wall - world;
  if (Math.abs(gap) < SAME_WITHIN_MS) return undefined;
  const amount = gapWords(Math.abs(gap));
  const way = gap > 0 ? 'behind' : 'ahead of';
  return { amount, way, words: `world ${amount} ${way} wall` };
}
