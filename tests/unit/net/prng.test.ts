import { describe, expect, it } from 'vitest';
import { normalizeSeed, Prng } from '../../../src/net/prng.ts';

describe('Prng', () => {
  it('replays the same sequence for the same seed, and another for another seed', () => {
    const draw = (seed: number) =>
      Array.from(
        { length: 20 },
        (
          (p) => () =>
            p.next()
        )(new Prng(seed)),
      );
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('draws floats in [0, 1) spread over the range', () => {
    const prng = new Prng(7);
    const values = Array.from({ length: 10_000 }, () => prng.next());
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
  });

  it('chance(p) is true about p of the time, and always draws once', () => {
    const a = new Prng(9);
    const hits = Array.from({ length: 10_000 }, () => a.chance(0.3)).filter(Boolean).length;
    expect(hits).toBeGreaterThan(2800);
    expect(hits).toBeLessThan(3200);
    const b = new Prng(9);
    const c = new Prng(9);
    b.chance(0);
    c.chance(1);
    expect(b.next()).toBe(c.next());
  });

  it('keeps seeds small non-negative integers, as shown in the page', () => {
    expect(normalizeSeed(-12.7)).toBe(12);
    expect(normalizeSeed(Number.NaN)).toBe(1);
    expect(new Prng(3_000_000_001).seed).toBe(1);
  });
});
