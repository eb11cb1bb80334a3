/**
 * Tab at either end of the page goes round to the other end instead of
 * leaving focus on `<body>`: what the task detail does while it covers the
 * columns (it is not modal: the header stays usable, so Tab runs from the
 * detail's last control on to the header's first, and Shift+Tab back).
 */

/** What Tab can stop on: links, enabled form controls and anything with a tabindex of 0 or more. */
const TABBABLE = [
  'a[href]',
  'button',
  'input:not([type="hidden"])',
  'select',
  'textarea',
  'summary',
  '[tabindex]',
].join(', ');

type Focusable = Element & HTMLOrSVGElement;

/** Whether Tab stops on `el`: not disabled, not taken out of the order, not inert and drawn. */
function isTabbable(el: Focusable): boolean {
  if (el.tabIndex < 0) return false;
  if ((el as HTMLButtonElement).disabled) return false;
  if (el.closest('[inert]')) return false;
  return el.checkVisibility?.() ?? el.getClientRects().length > 0;
}

/** The elements of `root` Tab visits, in document order (every tabindex is 0 or -1 on this page). */
export function tabbables(root: ParentNode): Focusable[] {
  return [...root.querySelectorAll<Focusable>(TABBABLE)].filter(isTabbable);
}

/**
 * Where Tab (Shift+Tab when `backwards`) from `from` should go instead of
 * off the end of `order`: the first element from the last, the last from
 * the first; undefined anywhere else (the browser moves focus itself).
 */
export function wrapTarget<T>(
  order: readonly T[],
  from: T | null | undefined,
  backwards: boolean,
): T | undefined {
  if (order.length < 2 || from === null || from === undefined) return undefined;
  if (!backwards && from === order.at(-1)) return order[0];
  if (backwards && from === order[0]) return order.at(-1);
  return undefined;
}
