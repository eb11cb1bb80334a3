import { describe, expect, it } from 'vitest';
import { focusHeir } from '../../../src/ui/state/focus-heir.ts';

type Control = { name: string; enabled: boolean };
const group = (...names: string[]): Control[] =>
  names.map((name) => ({ name: name.replace('!', ''), enabled: !name.endsWith('!') }));
const heirOf = (controls: Control[], name: string) =>
  focusHeir(
    controls,
    controls.find((c) => c.name === name)!,
    (c) => c.enabled,
  )?.name;

describe('focusHeir', () => {
  it('at the oldest step, « and Back hand the focus to Forward', () => {
    const history = group('oldest!', 'back!', 'forward', 'live');
    expect(heirOf(history, 'oldest')).toBe('forward');
    expect(heirOf(history, 'back')).toBe('forward');
  });

  it('once live, Forward hands it back to Back: the one before comes first', () => {
    expect(heirOf(group('oldest', 'back', 'forward!', 'live'), 'forward')).toBe('back');
  });

  it('skips disabled neighbours either way, nearest first', () => {
    expect(heirOf(group('a', 'b!', 'c!', 'd!', 'e'), 'c')).toBe('a');
    expect(heirOf(group('a!', 'b!', 'c!', 'd', 'e'), 'b')).toBe('d');
  });

  it('is undefined with no enabled control, or for a control outside the group', () => {
    const off = group('a!', 'b!');
    expect(heirOf(off, 'a')).toBeUndefined();
    expect(focusHeir(off, { name: 'x', enabled: true }, (c) => c.enabled)).toBeUndefined();
  });
});
