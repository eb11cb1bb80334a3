/**
 * The header's world-against-wall readout in words: nothing while the two
 * agree, the gap and its direction once they differ (a pause leaves the
 * world behind for good; 4x can put it ahead).
 */
import { describe, expect, it } from 'vitest';
import { gapWords, SAME_WITHIN_MS, worldLag } from '../../../src/ui/state/world-lag.ts';

const WALL = Date.UTC(2026, 6, 28, 12, 0, 0);

describe('worldLag', () => {
  it('says nothing while world time runs with wall time', () => {
    expect(worldLag(WALL, WALL)).toBeUndefined();
    expect(worldLag(WALL - (SAME_WITHIN_MS - 1), WALL)).toBeUndefined();
    expect(worldLag(WALL + (SAME_WITHIN_MS - 1), WALL)).toBeUndefined();
  });

  it('after a pause: how far behind wall time the world is, in words', () => {
    expect(worldLag(WALL - 12_400, WALL)).toEqual({
      amount: '12 s',
      way: 'behind',
      words: 'world 12 s behind wall',
    });
    expect(worldLag(WALL - SAME_WITHIN_MS, WALL)?.words).toBe('world 0.1 s behind wall');
  });

  it('never says a gap of nothing: under a tenth of a second it says nothing at all', () => {
    for (const gap of [50, 75, 99]) {
      expect(worldLag(WALL - gap, WALL)).toBeUndefined();
      expect(worldLag(WALL + gap, WALL)).toBeUndefined();
    }
  });

  it('sped up past wall time: ahead of it', () => {
    expect(worldLag(WALL + 2_450, WALL)?.words).toBe('world 2.4 s ahead of wall');
  });
});

describe('gapWords', () => {
  it('tenths under 10 s, whole seconds under a minute, then minutes and hours, never rounded up', () => {
    expect(gapWords(0)).toBe('0.0 s');
    expect(gapWords(9_999)).toBe('9.9 s');
    expect(gapWords(10_000)).toBe('10 s');
    expect(gapWords(59_999)).toBe('59 s');
    expect(gapWords(60_000)).toBe('1 min');
    expect(gapWords(185_500)).toBe('3 min 5 s');
    expect(gapWords(3_600_000)).toBe('1 h');
    expect(gapWords(3_600_000 + 2 * 60_000 + 30_000)).toBe('1 h 2 min');
  });
});
