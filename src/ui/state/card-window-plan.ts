/**
 * The task list's window maths, pure: which cards are drawn for a scroll
 * position, and how much empty space stands for the cards that are not, so
 * the list is as tall as if every card were drawn (its scroll bar stays
 * right, and a card keeps its place when it is drawn).
 *
 * A card is wanted when it is within `overscanPx` of the view or pinned (the
 * newest few, one asking for input, the open or focused one). Mounting a card
 * costs a few milliseconds of script, so at most `mountBudget` cards not yet
 * mounted are mounted per frame, those in view first: a jump across the list
 * (or a first thousand tasks) becomes a few short frames, not one long task.
 * A card that is wanted but waits its turn is left as empty space for a frame.
 */

export interface WindowPlanInput {
  /** Each card's height, newest first: its last drawn height, or a guess; the gap to the next card included. */
  readonly heights: readonly number[];
  /** The view, in px from the top of the list (negative while the list starts below the view). */
  readonly viewTop: number;
  readonly viewBottom: number;
  /** How far beyond the view cards are drawn too, so scrolling rarely reveals empty space. */
  readonly overscanPx: number;
  /** Indexes drawn wherever they are. */
  readonly pinned: ReadonlySet<number>;
  /** Whether the card at an index is mounted now (mounted cards cost nothing to keep). */
  readonly mounted: (index: number) => boolean;
  /** At most this many cards not mounted yet are mounted by this plan. */
  readonly mountBudget: number;
  /**
   * `offsetsOf(heights)`, when the caller keeps it between plans: heights change only when a
   * card is measured or the list changes, while a scroll plans every frame, so a scroll's plan
   * then reads only the cards it draws and a binary search's few (O(drawn + log n), not O(n)).
   */
  readonly offsets?: { readonly tops: readonly number[]; readonly total: number };
}

/** A drawn card, and the empty space standing between it and the drawn card before it. */
export interface DrawnSlot {
  readonly index: number;
  readonly spaceBefore: number;
}

export interface WindowPlan {
  /** In index order. */
  readonly drawn: readonly DrawnSlot[];
  /** Empty space after the last drawn card. */
  readonly spaceAfter: number;
  /** The whole list's height, as if every card were drawn. */
  readonly totalHeight: number;
  /** Cards wanted but not mounted by this plan (the budget ran out): plan again next frame. */
  readonly waiting: number;
}

/** Where each card starts, from the top of the list, and where the last one ends. */
export function offsetsOf(heights: readonly number[]): { tops: number[]; total: number } {
  const tops: number[] = [];
  let at = 0;
  for (const height of heights) {
    tops.push(at);
    at += height;
  }
  return { tops, total: at };
}

/** The first and one-past-last index of the cards overlapping [from, to): binary searches over the sorted tops. */
export function rangeOf(
  tops: readonly number[],
  heights: readonly number[],
  from: number,
  to: number,
): { start: number; end: number } {
  // The first card ending after `from` (cards end in order, as their tops are in order).
  const start = firstIndex(tops.length, (i) => tops[i]! + heights[i]! > from);
  // The first card from `start` on starting at or after `to`.
  const end = Math.max(
    start,
    firstIndex(tops.length, (i) => tops[i]! >= to),
  );
  return { start, end };
}

/** The least index in [0, length) where `holds` turns true (it is false then true along the indexes), or length. */
function firstIndex(length: number, holds: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (holds(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

export function planWindow(input: WindowPlanInput): WindowPlan {
  const { heights, viewTop, viewBottom, overscanPx, pinned, mounted } = input;
  const { tops, total } = input.offsets ?? offsetsOf(heights);
  const inView = rangeOf(tops, heights, viewTop, viewBottom);
  const near = rangeOf(tops, heights, viewTop - overscanPx, viewBottom + overscanPx);

  // Those in view first (top down), then the pinned, then the overscan nearest the view first.
  const order: number[] = [];
  for (let i = inView.start; i < inView.end; i++) order.push(i);
  for (const i of [...pinned].sort((a, b) => a - b))
    if (i >= 0 && i < heights.length && (i < inView.start || i >= inView.end)) order.push(i);
  for (let step = 1; ; step++) {
    const below = inView.end - 1 + step;
    const above = inView.start - step;
    const more = below < near.end || above >= near.start;
    if (!more) break;
    if (below < near.end && !pinned.has(below)) order.push(below);
    if (above >= near.start && !pinned.has(above)) order.push(above);
  }

  const drawn: number[] = [];
  let budget = input.mountBudget;
  let waiting = 0;
  for (const i of order) {
    if (mounted(i)) drawn.push(i);
    else if (budget > 0) {
      budget--;
      drawn.push(i);
    } else waiting++;
  }
  drawn.sort((a, b) => a - b);

  const slots: DrawnSlot[] = [];
  let end = 0;
  for (const index of drawn) {
    slots.push({ index, spaceBefore: tops[index]! - end });
    end = tops[index]! + heights[index]!;
  }
  return { drawn: slots, spaceAfter: total - end, totalHeight: total, waiting };
}

/**
 * The height to assume for cards never drawn: the mean of those measured
 * (cards of one list are much alike), or `fallback` before any was.
 */
export function guessHeight(measured: Iterable<number>, fallback: number): number {
  let sum = 0;
  let count = 0;
  for (const height of measured) {
    sum += height;
    count++;
  }
  return count === 0 ? fallback : sum / count;
}
