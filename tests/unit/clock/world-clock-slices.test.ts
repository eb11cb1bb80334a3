/**
 * The world clock with slices (src/clock/frame-slices.ts): timers falling
 * due together are fired over several tasks when the slices say a frame is
 * due, each exactly once, in their order (due time, then the order they were
 * set), never before they are due (T12: a poll may come later than its
 * interval, never sooner). A paused world holds the rest; a step runs them
 * all. On a simulated wall clock and hand-stepped slices; no real time passes.
 *
 * Seeded and bounded (see helpers/fc-run.ts for FC_SEED, FC_RUNS, FC_PATH).
 */
import fc from 'fast-check';
import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { WorldClock } from '../../../src/clock/world-clock.ts';
import { fcParameters } from '../helpers/fc-run.ts';
import { handSlices } from '../helpers/hand-slices.ts';

function slicedWorld(budgetMs: number) {
  const wall = new SimulatedClock();
  wall.set(1_000_000);
  const hand = handSlices(budgetMs);
  const world = new WorldClock(wall, { slices: hand.slices });
  return { wall, hand, world };
}

describe('WorldClock, sliced', () => {
  it('T12: polls falling due together are fired over several tasks, in order, each once, none early', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ ms: fc.integer({ min: 0, max: 300 }), cost: fc.nat(5) }), {
          minLength: 1,
          maxLength: 60,
        }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 8 }),
        (timers, budgetMs, wallSteps) => {
          const { wall, hand, world } = slicedWorld(budgetMs);
          const fired: { n: number; at: number; due: number }[] = [];
          timers.forEach(({ ms, cost }, n) => {
            const due = world.now() + ms;
            world.setTimeout(() => {
              fired.push({ n, at: world.now(), due });
              hand.spend(cost);
            }, ms);
          });
          for (const step of [...wallSteps, 400]) {
            wall.increment(step);
            // Every later task the slices asked for runs before the wall moves on.
            while (hand.runLater());
          }
          const expected = timers
            .map(({ ms }, n) => ({ n, ms }))
            .sort((a, b) => a.ms - b.ms || a.n - b.n)
            .map(({ n }) => n);
          expect(fired.map((f) => f.n)).toEqual(expected);
          for (const f of fired) expect(f.at).toBeGreaterThanOrEqual(f.due);
        },
      ),
      fcParameters(200),
    );
  });

  it('a cut round goes on in a later task; timers set meanwhile wait behind those already due', () => {
    const { wall, hand, world } = slicedWorld(4);
    const fired: string[] = [];
    for (const name of ['a', 'b', 'c', 'd'])
      world.setTimeout(() => {
        fired.push(name);
        hand.spend(2);
        if (name === 'a') world.setTimeout(() => fired.push('set by a'), 0);
      }, 100);
    wall.increment(100);
    expect(fired).toEqual(['a', 'b']);
    expect(hand.waiting).toBe(1);
    hand.runLater();
    expect(fired).toEqual(['a', 'b', 'c', 'd']);
    hand.runLater();
    expect(fired).toEqual(['a', 'b', 'c', 'd', 'set by a']);
    expect(world.pendingTimers).toBe(0);
  });

  it('a timer cleared while its round waits does not fire', () => {
    const { wall, hand, world } = slicedWorld(1);
    const fired: string[] = [];
    const handles = ['a', 'b', 'c'].map((name) =>
      world.setTimeout(() => {
        fired.push(name);
        hand.spend(1);
      }, 10),
    );
    wall.increment(10);
    expect(fired).toEqual(['a']);
    world.clearTimeout(handles[1]);
    while (hand.runLater());
    expect(fired).toEqual(['a', 'c']);
  });

  it('paused while a round waits, the rest hold until resumed; a step runs every timer due at once', () => {
    const { wall, hand, world } = slicedWorld(1);
    const fired: number[] = [];
    for (let n = 0; n < 6; n++)
      world.setTimeout(() => {
        fired.push(n);
        hand.spend(1);
      }, 10);
    wall.increment(10);
    expect(fired).toEqual([0]);
    world.pause();
    while (hand.runLater());
    wall.increment(1000);
    expect(fired).toEqual([0]);
    // A step is whole: the slices are for the wall timer's rounds.
    expect(world.step()).toBe(true);
    expect(fired).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('without slices, a round is one task whatever it costs', () => {
    const wall = new SimulatedClock();
    const world = new WorldClock(wall);
    const fired: number[] = [];
    for (let n = 0; n < 50; n++) world.setTimeout(() => fired.push(n), 5);
    wall.increment(5);
    expect(fired).toHaveLength(50);
  });
});
