import { describe, expect, it } from 'vitest';
import { replayKeyMove, type KeyPress } from '../../../src/ui/state/replay-keys.ts';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

describe('replayKeyMove', () => {
  it('on the slider, or with nothing that takes keys focused, Space and the arrows are the replay’s', () => {
    for (const holder of ['slider', 'nothing'] as const) {
      expect(replayKeyMove(press(' '), holder)).toEqual({ kind: 'toggle' });
      expect(replayKeyMove(press('ArrowRight'), holder)).toEqual({
        kind: 'step',
        way: 'forward',
        to: 'message',
      });
      expect(replayKeyMove(press('ArrowLeft', { shiftKey: true }), holder)).toEqual({
        kind: 'step',
        way: 'back',
        to: 'change',
      });
    }
  });

  it('on the replay’s own buttons the arrows step; Space is the button’s click', () => {
    expect(replayKeyMove(press('ArrowRight', { shiftKey: true }), 'replay-button')).toEqual({
      kind: 'step',
      way: 'forward',
      to: 'change',
    });
    expect(replayKeyMove(press(' '), 'replay-button')).toBeUndefined();
  });

  it('a focused control keeps its keys (a detail’s Close, the Messages tabs, a field)', () => {
    for (const key of [' ', 'ArrowLeft', 'ArrowRight'])
      expect(replayKeyMove(press(key), 'control')).toBeUndefined();
  });

  it('leaves other keys and modified presses alone', () => {
    expect(replayKeyMove(press('ArrowUp'), 'slider')).toBeUndefined();
    expect(replayKeyMove(press('ArrowRight', { altKey: true }), 'nothing')).toBeUndefined();
    expect(replayKeyMove(press(' ', { ctrlKey: true }), 'slider')).toBeUndefined();
  });
});
