/**
 * Where fault notices go among the rows a list draws (the wire log, the
 * sequence view): each just before the first row logged after it, or after
 * the last row if none came yet. A notice older than the rows drawn (the
 * list shows only its newest rows) is left out rather than drawn on top.
 */
import type { FaultNotice } from '../../session/fault-notices.ts';

export interface PlacedFaults {
  /** Notices to draw before the row with this `seq`. */
  readonly before: ReadonlyMap<number, readonly FaultNotice[]>;
  /** Notices newer than every row drawn. */
  readonly after: readonly FaultNotice[];
}

/**
 * `rows` are drawn in order (live rows in `seq` order); `fromSeq` is the
 * `seq` of the row just before the first drawn one (undefined: the list
 * starts at its first row), so older notices stay out.
 */
export function placeFaults(
  rows: readonly { seq: number }[],
  faults: readonly FaultNotice[],
  fromSeq?: number,
): PlacedFaults {
  const before = new Map<number, FaultNotice[]>();
  const after: FaultNotice[] = [];
  let row = 0;
  for (const fault of faults) {
    if (fromSeq !== undefined && fault.afterSeq < fromSeq) continue;
    while (row < rows.length && (rows[row]?.seq ?? Infinity) <= fault.afterSeq) row++;
    const next = rows[row];
    if (!next) after.push(fault);
    else before.set(next.seq, [...(before.get(next.seq) ?? []), fault]);
  }
  return { before, after };
}
