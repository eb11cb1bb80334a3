/**
 * The replay's keys (Space plays or pauses, the arrows step a message, with
 * Shift a state change) and who they belong to. A key belongs to the
 * control that has the focus: the Close button or a scroller of an open
 * task detail, the Messages tabs, a field. The replay takes it only when
 * its slider has the focus, or nothing that takes keys does (the page
 * itself, a region the skip link focused); on the replay's own buttons
 * (Play, the steps) the arrows step too, Space being the button's click.
 */

/** What the replay does for a key. */
export type ReplayKeyMove =
  | { readonly kind: 'toggle' }
  | {
      readonly kind: 'step';
      readonly way: 'back' | 'forward';
      readonly to: 'message' | 'change';
    };

/** Who holds the focus, as far as the replay's keys go. */
export type FocusHolder = 'slider' | 'replay-button' | 'nothing' | 'control';

export interface KeyPress {
  readonly key: string;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
}

/** The replay's move for `press` with the focus on `holder`; undefined when the key is not the replay's. */
export function replayKeyMove(press: KeyPress, holder: FocusHolder): ReplayKeyMove | undefined {
  if (holder === 'control' || press.altKey || press.ctrlKey || press.metaKey) return undefined;
  const to = press.shiftKey ? 'change' : 'message';
  if (press.key === ' ') return holder === 'replay-button' ? undefined : { kind: 'toggle' };
  if (press.key === 'ArrowRight') return { kind: 'step', way: 'forward', to };
  if (press.key === 'ArrowLeft') return { kind: 'step', way: 'back', to };
  return undefined;
}

/** Elements that take keys of their own: controls, links, fields, and anything in the Tab order. */
const TAKES_KEYS = [
  'a[href]',
  'button',
  'input',
  'select',
  'textarea',
  'summary',
  '[contenteditable]:not([contenteditable="false"])',
  '[tabindex]:not([tabindex="-1"])',
  '[role="tab"], [role="tablist"], [role="listbox"], [role="option"], [role="menu"]',
  '[role="menuitem"], [role="slider"], [role="spinbutton"], [role="grid"], [role="tree"]',
].join(', ');

/** A focused element that scrolls takes the arrows as its own (the browser scrolls it). */
function scrolls(element: Element): boolean {
  const { overflowX, overflowY } = getComputedStyle(element);
  const can = (overflow: string): boolean => overflow === 'auto' || overflow === 'scroll';
  return (
    (can(overflowY) && element.scrollHeight > element.clientHeight) ||
    (can(overflowX) && element.scrollWidth > element.clientWidth)
  );
}

/**
 * Who holds the focus: the replay's `slider`, one of the buttons of its
 * `controls`, nothing that takes keys, or a control of its own.
 */
export function focusHolder(
  focused: Element | null,
  replay: { readonly slider: Element | undefined; readonly controls: Element | undefined },
): FocusHolder {
  if (focused === null || focused === document.body || focused === document.documentElement)
    return 'nothing';
  if (replay.slider !== undefined && focused === replay.slider) return 'slider';
  if (focused instanceof HTMLButtonElement && replay.controls?.contains(focused))
    return 'replay-button';
  return focused.matches(TAKES_KEYS) || scrolls(focused) ? 'control' : 'nothing';
}
