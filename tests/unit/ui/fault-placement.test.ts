import { describe, expect, it } from 'vitest';
import type { FaultNotice } from '../../../src/session/fault-notices.ts';
import { placeFaults } from '../../../src/ui/state/fault-placement.ts';

const fault = (id: number, afterSeq: number): FaultNotice => ({
  id,
  afterSeq,
  at: id,
  kind: 'kill',
  text: 'server worker #1 killed',
  taskIds: [],
});
const rows = (...seqs: number[]) => seqs.map((seq) => ({ seq }));

describe('faults among the messages', () => {
  it('C8: a kill goes before the first message logged after it, not into a gap in the times', () => {
    const placed = placeFaults(rows(-2, -1, 1, 2, 5, 6), [fault(1, 2), fault(2, 2), fault(3, 6)]);
    expect(placed.before.get(5)?.map((f) => f.id)).toEqual([1, 2]);
    expect(placed.after.map((f) => f.id)).toEqual([3]);
    // Rows kept from before a reload (negative seq) come before any fault of this page.
    expect(placeFaults(rows(-2, -1), [fault(1, 0)]).after.map((f) => f.id)).toEqual([1]);
  });

  it('C8: a fault older than the rows drawn stays out instead of piling up on top', () => {
    const placed = placeFaults(rows(10, 11), [fault(1, 3), fault(2, 10)], 9);
    expect([...placed.before.values()].flat().map((f) => f.id)).toEqual([2]);
    expect(placed.after).toEqual([]);
  });
});
