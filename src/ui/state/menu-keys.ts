/**
 * The keyboard of a menu button (the WAI-ARIA "menu button" pattern), as a
 * pure model: which item is active after a key, where the focus goes, and
 * which item was chosen. `MenuButton.svelte` only applies what it returns,
 * so the whole pattern is tested in Node without a DOM.
 *
 * On the button: Enter, Space and ArrowDown open the menu on its first item,
 * ArrowUp on its last; a click opens it (on the first item) or closes it.
 * In the menu: ArrowDown / ArrowUp move (wrapping), Home / End go to the
 * ends, a letter goes to the next item starting with it, Enter / Space
 * choose the item (the menu closes and the focus is back on the button),
 * Esc closes onto the button, Tab (either way) closes and moves on from the
 * button, to the control after it or before it.
 */

/** Whether the menu is open, and the item that has the focus while it is. */
export interface MenuState {
  readonly open: boolean;
  /** Index of the focused item while open; -1 when closed. */
  readonly active: number;
}

/** A closed menu. */
export const CLOSED: MenuState = { open: false, active: -1 };

/** The part of a `KeyboardEvent` the model reads. */
export interface MenuKey {
  readonly key: string;
  readonly altKey?: boolean;
  readonly ctrlKey?: boolean;
  readonly metaKey?: boolean;
}

/** What to do after a key or a click. */
export interface MenuMove {
  readonly state: MenuState;
  /**
   * Where the focus goes: `item` the active item, `button` the menu button,
   * `stay` where it is (or where a click put it).
   */
  readonly focus: 'item' | 'button' | 'stay';
  /** The item chosen (Enter, Space, a click on it): run it after the menu closes. */
  readonly chosen?: number;
  /** The key was the menu's: the browser's own action for it must not run too. */
  readonly handled: boolean;
}

const IGNORED: MenuMove = { state: CLOSED, focus: 'stay', handled: false };

function opened(active: number): MenuMove {
  return { state: { open: true, active }, focus: 'item', handled: true };
}

/** A key with Alt, Ctrl or Meta is a shortcut of the page (Alt+P pauses time), never the menu's. */
function modified(key: MenuKey): boolean {
  return Boolean(key.altKey || key.ctrlKey || key.metaKey);
}

/** A key pressed on the menu button while the menu is closed, with `count` items. */
export function buttonKey(key: MenuKey, count: number): MenuMove {
  if (count === 0 || modified(key)) return IGNORED;
  switch (key.key) {
    case 'Enter':
    case ' ':
    case 'ArrowDown':
      return opened(0);
    case 'ArrowUp':
      return opened(count - 1);
    default:
      return IGNORED;
  }
}

/** A click on the menu button: opens the menu on its first item, or closes an open one. */
export function buttonClick(state: MenuState, count: number): MenuMove {
  if (state.open) return { state: CLOSED, focus: 'button', handled: true };
  return count === 0 ? IGNORED : opened(0);
}

/** A click on item `index`: chosen, as Enter on it would be. */
export function itemClick(index: number): MenuMove {
  return { state: CLOSED, focus: 'button', chosen: index, handled: true };
}

/** A press outside the button and the menu: closed, the focus left where the press put it. */
export function outsidePress(): MenuMove {
  return { state: CLOSED, focus: 'stay', handled: false };
}

/**
 * The next item after `from` (wrapping) whose label starts with `letter`, case
 * aside; `from` itself when none does.
 */
function nextStartingWith(labels: readonly string[], from: number, letter: string): number {
  const wanted = letter.toLocaleLowerCase();
  for (let step = 1; step <= labels.length; step++) {
    const index = (from + step) % labels.length;
    if (labels[index]!.trimStart().toLocaleLowerCase().startsWith(wanted)) return index;
  }
  return from;
}

/** A key pressed in the open menu, whose items read `labels`. */
export function menuKey(state: MenuState, key: MenuKey, labels: readonly string[]): MenuMove {
  const count = labels.length;
  if (!state.open || count === 0) return IGNORED;
  if (modified(key)) return { state, focus: 'stay', handled: false };
  const at = (active: number): MenuMove => opened(((active % count) + count) % count);
  switch (key.key) {
    case 'ArrowDown':
      return at(state.active + 1);
    case 'ArrowUp':
      return at(state.active - 1);
    case 'Home':
    case 'PageUp':
      return at(0);
    case 'End':
    case 'PageDown':
      return at(count - 1);
    case 'Enter':
    case ' ':
      return itemClick(state.active);
    case 'Escape':
      return { state: CLOSED, focus: 'button', handled: true };
    case 'Tab':
      // Back on the button first, so the browser's own Tab moves on from there, either way.
      return { state: CLOSED, focus: 'button', handled: false };
    default:
      // One printable character: type-ahead to the next item starting with it.
      if ([...key.key].length === 1 && key.key.trim() !== '')
        return at(nextStartingWith(labels, state.active, key.key));
      return { state, focus: 'stay', handled: false };
  }
}
