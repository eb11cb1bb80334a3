/**
 * The menu button's keyboard (WAI-ARIA menu button pattern), on the pure
 * model `MenuButton.svelte` applies: opening from the button, moving in the
 * menu, choosing, closing, and where the focus goes each time.
 */
import { describe, expect, it } from 'vitest';
import {
  buttonClick,
  buttonKey,
  CLOSED,
  itemClick,
  menuKey,
  outsidePress,
  type MenuState,
} from '../../../src/ui/state/menu-keys.ts';

const LABELS = ['Save run', 'Export HAR', 'Copy link', 'Open a run…'];
const at = (active: number): MenuState => ({ open: true, active });
const press = (state: MenuState, key: string) => menuKey(state, { key }, LABELS);

describe('the menu button, closed', () => {
  it.each(['Enter', ' ', 'ArrowDown'])('%j opens the menu on its first item', (key) => {
    expect(buttonKey({ key }, 4)).toEqual({ state: at(0), focus: 'item', handled: true });
  });

  it('ArrowUp opens it on its last item', () => {
    expect(buttonKey({ key: 'ArrowUp' }, 4)).toMatchObject({ state: at(3), focus: 'item' });
  });

  it('other keys, a modified key (Alt+ArrowDown) and an empty menu leave it closed and unhandled', () => {
    expect(buttonKey({ key: 'Tab' }, 4)).toMatchObject({ state: CLOSED, handled: false });
    expect(buttonKey({ key: 'ArrowDown', altKey: true }, 4)).toMatchObject({
      state: CLOSED,
      handled: false,
    });
    expect(buttonKey({ key: 'Enter' }, 0)).toMatchObject({ state: CLOSED, handled: false });
  });

  it('a click opens it on the first item; a second click closes it onto the button', () => {
    const open = buttonClick(CLOSED, 4);
    expect(open).toMatchObject({ state: at(0), focus: 'item' });
    expect(buttonClick(open.state, 4)).toMatchObject({ state: CLOSED, focus: 'button' });
  });
});

describe('the open menu', () => {
  it('ArrowDown and ArrowUp move one item, wrapping at either end', () => {
    expect(press(at(0), 'ArrowDown')).toMatchObject({ state: at(1), focus: 'item', handled: true });
    expect(press(at(3), 'ArrowDown').state).toEqual(at(0));
    expect(press(at(2), 'ArrowUp').state).toEqual(at(1));
    expect(press(at(0), 'ArrowUp').state).toEqual(at(3));
  });

  it('Home and End go to the first and the last item', () => {
    expect(press(at(2), 'Home')).toMatchObject({ state: at(0), focus: 'item', handled: true });
    expect(press(at(1), 'End')).toMatchObject({ state: at(3), focus: 'item', handled: true });
  });

  it.each(['Enter', ' '])(
    '%j chooses the active item, closes, and puts the focus on the button',
    (key) => {
      expect(press(at(2), key)).toEqual({
        state: CLOSED,
        focus: 'button',
        chosen: 2,
        handled: true,
      });
    },
  );

  it('Esc closes without choosing; the focus is back on the button', () => {
    const move = press(at(1), 'Escape');
    expect(move).toEqual({ state: CLOSED, focus: 'button', handled: true });
    expect(move.chosen).toBeUndefined();
  });

  it('Tab closes and is left to the browser, from the button, so the focus moves on', () => {
    expect(press(at(1), 'Tab')).toEqual({ state: CLOSED, focus: 'button', handled: false });
  });

  it('a letter goes to the next item starting with it (case aside), wrapping; none: it stays', () => {
    expect(press(at(0), 'c')).toMatchObject({ state: at(2), focus: 'item', handled: true });
    expect(press(at(0), 'O').state).toEqual(at(3));
    expect(press(at(3), 's').state).toEqual(at(0));
    expect(press(at(1), 'z').state).toEqual(at(1));
    // Two items starting alike: each press moves on to the next one.
    const twice = ['Copy link', 'Close', 'Save'];
    expect(menuKey(at(0), { key: 'c' }, twice).state).toEqual(at(1));
    expect(menuKey(at(1), { key: 'c' }, twice).state).toEqual(at(0));
  });

  it("a key with Alt, Ctrl or Meta is the page's shortcut, not the menu's: nothing moves", () => {
    expect(menuKey(at(1), { key: 'p', altKey: true }, LABELS)).toEqual({
      state: at(1),
      focus: 'stay',
      handled: false,
    });
    expect(menuKey(at(1), { key: 'ArrowDown', ctrlKey: true }, LABELS).state).toEqual(at(1));
  });

  it("keys that are not the menu's (Shift alone, F5) leave it as it is, unhandled", () => {
    expect(press(at(2), 'Shift')).toEqual({ state: at(2), focus: 'stay', handled: false });
    expect(press(at(2), 'F5').handled).toBe(false);
  });

  it('a closed menu takes no key', () => {
    expect(press(CLOSED, 'ArrowDown')).toMatchObject({ state: CLOSED, handled: false });
  });

  it('a click on an item chooses it; a press outside closes without moving the focus', () => {
    expect(itemClick(1)).toEqual({ state: CLOSED, focus: 'button', chosen: 1, handled: true });
    expect(outsidePress()).toEqual({ state: CLOSED, focus: 'stay', handled: false });
  });
});
