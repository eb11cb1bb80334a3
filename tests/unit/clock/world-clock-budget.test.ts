/**
 * The world clock's budget per wall timer (FIRE_BUDGET_MS): timers that fall
 * due together (a thousand polls after one batch of answers) are fired over
 * several wall tasks once one task has used its budget, in their order, and
 * never before they are due. On a hand-stepped wall clock whose time moves
 * only when a callback says it took so long; no real time passes.
 */
import { describe, expect, it } from 'vitest';
import type { Timers } from '../../../src/clock/timers.ts';
import { FIRE_BUDGET_MS, WorldClock } from '../../../src/clock/world-clock.ts';

/** A wall clock whose timers run only when `runNext()` says (each run is one task of the event loop). */
function handWall() {
  let now = 1_000_000;
  let nextId = 1;
  const timers = new Map<number, { due: number; callback: () => void }>();
  const wall: Timers = {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { due: now + ms, callback });
      return id;
    },
    clearTimeout(handle) {
      if (typeof handle === 'number') timers.delete(handle);
    },
  };
  return {
    wall,
    /** Time spent by the work running now. */
    spend: (ms: number) => (now += ms),
    /** Moves to the earliest wall timer (if later) and runs it, as one task; false when none waits. */
    runNext(): boolean {
      const [id, timer] = [...timers].sort((a, b) => a[1].due - b[1].due || a[0] - b[0])[0] ?? [];
      if (id === undefined || !timer) return false;
      timers.delete(id);
      now = Math.max(now, timer.due);
      timer.callback();
      return true;
    },
  };
}

describe('WorldClock, budget per wall timer', () => {
  it('T12: polls falling due together are spread over later tasks in their order, none before its time', () => {
    const hand = handWall();
    const world = new WorldClock(hand.wall);
    const fired: { n: number; task: number; world: number; due: number }[] = [];
    let task = 0;
    const costMs = 2;
    for (let n = 0; n < 20; n++) {
      const due = world.now() + 250;
      world.setTimeout(() => {
        fired.push({ n, task, world: world.now(), due });
        hand.spend(costMs);
      }, 250);
    }
    while (hand.runNext()) task++;
    expect(fired.map((f) => f.n)).toEqual([...Array(20).keys()]);
    // Never early (T12: spreading makes a poll later, never sooner than its interval).
    for (const f of fired) expect(f.world).toBeGreaterThanOrEqual(f.due);
    // Each wall task ran as many as fit in the budget, and no more.
    const perTask = Math.ceil(FIRE_BUDGET_MS / costMs);
    const tasks = new Map<number, number>();
    for (const f of fired) tasks.set(f.task, (tasks.get(f.task) ?? 0) + 1);
    expect([...tasks.values()].every((count) => count <= perTask)).toBe(true);
    expect(tasks.size).toBe(Math.ceil(20 / perTask));
  });

  it('one timer longer than the budget still runs, and the next waits for a later task', () => {
    const hand = handWall();
    const world = new WorldClock(hand.wall);
    const fired: string[] = [];
    world.setTimeout(() => {
      fired.push('slow');
      hand.spend(FIRE_BUDGET_MS * 10);
    }, 10);
    world.setTimeout(() => fired.push('next'), 10);
    hand.runNext();
    expect(fired).toEqual(['slow']);
    hand.runNext();
    expect(fired).toEqual(['slow', 'next']);
  });

  it('stepping a paused world runs every timer due, whatever they cost', () => {
    const hand = handWall();
    const world = new WorldClock(hand.wall);
    const fired: number[] = [];
    for (let n = 0; n < 10; n++)
      world.setTimeout(() => {
        fired.push(n);
        hand.spend(FIRE_BUDGET_MS);
      }, 100);
    world.pause();
    expect(world.step()).toBe(true);
    expect(fired).toEqual([...Array(10).keys()]);
  });
});
