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

/** A drawn row's height in px (WireRow.svelte: 12 px text at 1.5 lines, 8 px padding, 1 px border). */
export const ROW_PX = 27;
/** The most rows drawn while following: what a pane of unknown height draws (not laid out yet, a test's DOM). */
export const FOLLOWING_MAX = 60;

/**
 * Rows drawn while following a pane `paneHeight` px tall: two screens of it
 * (the reader sees the bottom one; the other is there to scroll up into),
 * at most {@link FOLLOWING_MAX}. Every drawn row takes a new message's text
 * at each flush and is laid out again, visible or not (content-visibility
 * skips none of them: Chromium renders rows up to about a screen beyond a
 * scroller's view), so rows no one can see are that flush's wasted layout.
 */
export function followingRows(paneHeight: number): number {
  if (!(paneHeight > 0)) return FOLLOWING_MAX;
  return Math.min(FOLLOWING_MAX, Math.ceil((2 * paneHeight) / ROW_PX));
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
