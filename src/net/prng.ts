/**
 * A tiny seeded pseudo-random generator (mulberry32), so a faulty run can be
 * repeated: the same seed and settings draw the same fate for the n-th
 * message. Not for anything secret.
 */
export class Prng {
  readonly seed: number;
  #state: number;

  constructor(seed: number) {
    this.seed = normalizeSeed(seed);
    this.#state = this.seed;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** True with probability `p` (0..1). Always draws, so later draws do not shift with `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A float in [min, max]. */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }
}

/** Seeds are shown and typed by people: keep them small non-negative integers. */
export function normalizeSeed(seed: number): number {
  if (!Number.isFinite(seed)) return 1;
  return Math.abs(Math.trunc(seed)) % 1_000_000_000;
}

/** A fresh seed for a new session (not itself reproducible, by design). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 1_000_000);
}
