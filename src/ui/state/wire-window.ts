/**
 * Which wire log rows are drawn. Laying out thousands of rows on every new
 * message is what made a busy log stutter, so only the newest `drawn` rows are
 * drawn while the reader follows the log. Once they hold it (scroll up, open a
 * row), the first drawn row stays put and new rows only append below it, so
 * what they read neither slides away nor leaves the page.
 */
export interface WireWindow {
  /** Index in `rows` of the first drawn row; the rows before it are not drawn. */
  start: number;
}

export function wireWindow(
  rows: readonly { seq: number }[],
  drawn: number,
  heldFrom: number | undefined,
): WireWindow {
  const latest = Math.max(0, rows.length - drawn);
  if (heldFrom === undefined) return { start: latest };
  const index = rows.findIndex((row) => row.seq === heldFrom);
  // The held row was cleared, trimmed or filtered out: fall back to the newest rows.
  return { start: index < 0 ? latest : index };
}

/** The seq to hold from after "show earlier": `page` rows before the current start. */
export function earlierStart(
  rows: readonly { seq: number }[],
  start: number,
  page: number,
): number | undefined {
  return rows[Math.max(0, start - page)]?.seq;
}
