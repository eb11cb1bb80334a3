/**
 * A history step's time is on the task actor's own clock: the page's world
 * clock when the actor runs on it (so a step and the wire rows around it agree
 * while the world is paused or slowed), the wall's for a clock that tells no time.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { realTimers } from '../../../src/clock/timers.ts';
import { WorldClock } from '../../../src/clock/world-clock.ts';
import { firstStepOn } from '../helpers/recorded-task-run.ts';

describe('HistoryRecorder on the world clock', () => {
  it('stamps a step with world time, which stands still while the world is paused', () => {
    const wall = new SimulatedClock();
    wall.set(Date.parse('2026-07-28T12:00:00Z'));
    const world = new WorldClock(wall);
    world.pause('test');
    const pausedAt = world.now();
    wall.increment(60_000);
    expect(firstStepOn(world).at).toBe(pausedAt);
  });

  it('stamps a step with wall time on a clock that tells none', () => {
    const before = Date.now();
    // The real timers without their `now`.
    const { setTimeout, clearTimeout } = realTimers;
    const at = firstStepOn({ setTimeout, clearTimeout }).at;
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });
});
