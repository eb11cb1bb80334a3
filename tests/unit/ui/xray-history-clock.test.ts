/**
 * The x-ray's readings and the history's steps on one clock, the page's world
 * clock: a reading heard while the world is paused carries the paused moment,
 * as a step taken then does, so the step shows the store as it was then.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { WorldClock } from '../../../src/clock/world-clock.ts';
import type { StoredTaskReading } from '../../../src/session/server-xray.ts';
import { XrayHistory, type XraySource } from '../../../src/ui/state/xray-history.ts';
import { firstStepOn } from '../helpers/recorded-task-run.ts';

/** An x-ray that reads `readings` and tells its listener when asked to. */
function fakeXray() {
  const readings = new Map<string, StoredTaskReading>();
  let listener: ((e: { taskId: string | undefined }) => void) | undefined;
  const session: XraySource = {
    xray: { reading: (id) => readings.get(id) ?? { kind: 'not-stored', deleted: false } },
    on: (_, l) => (listener = l),
  };
  return { readings, session, changed: (taskId: string) => listener?.({ taskId }) };
}

describe('XrayHistory on the world clock', () => {
  it('T12: with the world paused for 5 s of wall time, a step taken then reads the store as the x-ray told it then', () => {
    const wall = new SimulatedClock();
    wall.set(Date.parse('2026-07-28T12:00:00Z'));
    const world = new WorldClock(wall);
    const { readings, session, changed } = fakeXray();
    const history = new XrayHistory(session, () => world.now());
    readings.set('t1', { kind: 'stored', status: 'working', since: world.now() });
    history.track('t1');

    wall.increment(1_000);
    world.pause('test');
    wall.increment(5_000);
    // The store moved on while the world stood still (the worker told it before it paused).
    readings.set('t1', { kind: 'stored', status: 'completed', since: world.now() });
    changed('t1');
    const pausedStep = firstStepOn(world);
    expect(history.readingAt('t1', pausedStep.at)).toMatchObject({ status: 'completed' });

    world.resume();
    wall.increment(1_000);
    readings.set('t1', { kind: 'not-stored', deleted: true });
    changed('t1');
    // The paused step still reads what the store held then; a step now reads the deletion.
    expect(history.readingAt('t1', pausedStep.at)).toMatchObject({ status: 'completed' });
    expect(history.readingAt('t1', firstStepOn(world).at)).toEqual({
      kind: 'not-stored',
      deleted: true,
    });
  });
});
