/**
 * The patch in patches/xstate+5.33.3.patch (applied by `npm ci`'s
 * postinstall): a snapshot copied without a change of active states keeps
 * its state value and tags instead of rebuilding them. These tests fail on
 * an unpatched xstate (the value is then a new object on every `assign`),
 * and check that a real change of states still gives the right value and tags.
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, setup } from 'xstate';

const counter = setup({
  types: { context: {} as { count: number }, events: {} as { type: 'bump' } | { type: 'toggle' } },
}).createMachine({
  context: { count: 0 },
  type: 'parallel',
  states: {
    light: {
      initial: 'off',
      states: {
        off: { tags: ['dark'], on: { toggle: 'on' } },
        on: { tags: ['lit'], on: { toggle: 'off' } },
      },
    },
    count: { on: { bump: { actions: assign({ count: ({ context }) => context.count + 1 }) } } },
  },
});

describe('perf: xstate keeps the state value while the active states stay', () => {
  it('an assign alone: a new snapshot and context, the same value and tags objects', () => {
    const actor = createActor(counter).start();
    const before = actor.getSnapshot();
    actor.send({ type: 'bump' });
    const after = actor.getSnapshot();
    expect(after).not.toBe(before);
    expect(after.context.count).toBe(1);
    expect(after.value).toBe(before.value);
    expect(after.tags).toBe(before.tags);
  });

  it('a change of states: the value and tags are rebuilt, and right', () => {
    const actor = createActor(counter).start();
    actor.send({ type: 'bump' });
    const before = actor.getSnapshot();
    actor.send({ type: 'toggle' });
    const after = actor.getSnapshot();
    expect(after.value).not.toBe(before.value);
    expect(after.value).toEqual({ light: 'on', count: {} });
    expect([...after.tags]).toEqual(['lit']);
    expect(after.hasTag('dark')).toBe(false);
    expect(after.context.count).toBe(1);
    actor.send({ type: 'bump' });
    expect(actor.getSnapshot().value).toEqual({ light: 'on', count: {} });
    expect(actor.getSnapshot().hasTag('lit')).toBe(true);
  });
});
