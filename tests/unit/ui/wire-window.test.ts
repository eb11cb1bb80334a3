import { describe, expect, it } from 'vitest';
import {
  earlierStart,
  FOLLOWING_MAX,
  followingRows,
  ROW_PX,
  wireWindow,
} from '../../../src/ui/state/wire-window.ts';

const rows = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ seq: from + i }));

describe('wire log window', () => {
  it('draws only the newest rows while following', () => {
    expect(wireWindow(rows(1, 1000), 300, undefined).start).toBe(700);
    expect(wireWindow(rows(1, 10), 300, undefined).start).toBe(0);
  });

  it('keeps the first drawn row in place while held, however many rows arrive', () => {
    const before = wireWindow(rows(1, 1000), 300, undefined);
    const heldFrom = rows(1, 1000)[before.start]!.seq;
    const after = wireWindow(rows(1, 1500), 300, heldFrom);
    expect(after.start).toBe(before.start);
  });

  it('follows the held row when older rows are dropped from the front (the memory cap)', () => {
    expect(wireWindow(rows(201, 1500), 300, 701).start).toBe(500);
  });

  it('falls back to the newest rows when the held row is gone (cleared, filtered out)', () => {
    expect(wireWindow(rows(2000, 2100), 50, 701).start).toBe(51);
  });

  it('shows earlier rows a page at a time, stopping at the first', () => {
    const all = rows(-5, 1000); // Rows kept from before a reload have negative seq.
    expect(earlierStart(all, 700, 300)).toBe(all[400]!.seq);
    expect(earlierStart(all, 100, 300)).toBe(-5);
    expect(earlierStart([], 0, 300)).toBeUndefined();
  });

  it('wire log: draws two screens of the pane while following, not a fixed 60 rows', () => {
    // The bench's 720 px page: a 455 px pane shows 17 rows; 60 drawn laid out 43 no one saw.
    expect(followingRows(455)).toBe(34);
    expect(followingRows(10 * ROW_PX)).toBe(20);
    // A tall pane draws no more than before; one not laid out yet (0) draws as many.
    expect(followingRows(4000)).toBe(FOLLOWING_MAX);
    expect(followingRows(0)).toBe(FOLLOWING_MAX);
    expect(FOLLOWING_MAX).toBe(60);
  });
});
