/**
 * The world clock on a simulated wall clock: pause holds every timer, resume
 * goes on with the time each had left, a rate stretches wall time, step runs
 * the next timer due, and a follower (the server worker's clock) keeps the
 * same time through `sync`. No real time passes.
 */
import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { every } from '../../../src/clock/timers.ts';
import { WorldClock } from '../../../src/clock/world-clock.ts';
import { WorldClockMessageSchema } from '../../../src/protocol/worker-control.ts';

function worldOnSimulatedWall() {
  const wall = new SimulatedClock();
  wall.set(1_000_000);
  const world = new WorldClock(wall);
  const fired: { name: string; world: number; wall: number }[] = [];
  const at = (name: string, ms: number) =>
    world.setTimeout(() => fired.push({ name, world: world.now(), wall: wall.now() }), ms);
  return { wall, world, fired, at };
}

describe('WorldClock', () => {
  it('runs with the wall clock until told otherwise', () => {
    const { wall, world, fired, at } = worldOnSimulatedWall();
    at('poll', 1000);
    wall.increment(999);
    expect(world.now()).toBe(wall.now());
    expect(fired).toEqual([]);
    wall.increment(1);
    expect(fired).toEqual([{ name: 'poll', world: 1_001_000, wall: 1_001_000 }]);
  });

  it('paused, holds every timer however much wall time passes, and its time stands still', () => {
    const { wall, world, fired, at } = worldOnSimulatedWall();
    at('poll', 1000);
    at('lease', 5000);
    wall.increment(400);
    world.pause();
    const frozen = world.now();
    wall.increment(60_000);
    expect(fired).toEqual([]);
    expect(world.now()).toBe(frozen);
    expect(world.paused).toBe(true);
  });

  it('resumed, each timer goes on with the world time it had left', () => {
    const { wall, world, fired, at } = worldOnSimulatedWall();
    at('poll', 1000);
    wall.increment(400);
    world.pause();
    wall.increment(10_000);
    world.resume();
    wall.increment(599);
    expect(fired).toEqual([]);
    wall.increment(1);
    // 600 ms of world time were left: they took 600 ms of wall time after the 10 s pause.
    expect(fired).toEqual([{ name: 'poll', world: 1_001_000, wall: 1_011_000 }]);
    expect(wall.now() - world.now()).toBe(10_000);
  });

  it('at 0.5x a timer takes twice its time in wall time; at 4x a quarter', () => {
    const { wall, world, fired, at } = worldOnSimulatedWall();
    world.setRate(0.5);
    at('slow', 1000);
    wall.increment(1999);
    expect(fired).toEqual([]);
    wall.increment(1);
    expect(fired.map((f) => f.wall - 1_000_000)).toEqual([2000]);
    world.setRate(4);
    at('fast', 1000);
    wall.increment(250);
    expect(fired.map((f) => f.name)).toEqual(['slow', 'fast']);
  });

  it('a rate change part-way keeps what was already waited', () => {
    const { wall, world, fired, at } = worldOnSimulatedWall();
    at('poll', 1000);
    wall.increment(500);
    world.setRate(0.25);
    wall.increment(1999);
    expect(fired).toEqual([]);
    wall.increment(1);
    expect(fired).toHaveLength(1);
  });

  it('clamps the rate to 0.1x..4x', () => {
    const { world } = worldOnSimulatedWall();
    world.setRate(0.01);
    expect(world.rate).toBe(0.1);
    world.setRate(100);
    expect(world.rate).toBe(4);
    world.setRate(Number.NaN);
    expect(world.rate).toBe(1);
  });

  it('step moves the paused world to the next timer due, runs it, and stays paused', () => {
    const { wall, world, fired, at } = worldOnSimulatedWall();
    at('second', 2000);
    at('first', 700);
    world.pause();
    expect(world.step()).toBe(true);
    expect(fired.map((f) => [f.name, f.world])).toEqual([['first', 1_000_700]]);
    expect(world.paused).toBe(true);
    wall.increment(5000);
    expect(fired).toHaveLength(1);
    expect(world.step()).toBe(true);
    expect(fired.map((f) => f.name)).toEqual(['first', 'second']);
    expect(world.step()).toBe(false);
  });

  it('step on a running world pauses it first', () => {
    const { world, fired, at } = worldOnSimulatedWall();
    at('poll', 1000);
    world.step();
    expect(world.paused).toBe(true);
    expect(fired.map((f) => f.name)).toEqual(['poll']);
  });

  it('timers set by a firing timer wait for their own turn (like real timers)', () => {
    const { wall, world } = worldOnSimulatedWall();
    const order: string[] = [];
    world.setTimeout(() => {
      order.push('a');
      world.setTimeout(() => order.push('a+0'), 0);
    }, 100);
    world.setTimeout(() => order.push('b'), 100);
    wall.increment(100);
    expect(order).toEqual(['a', 'b']);
    wall.increment(0);
    expect(order).toEqual(['a', 'b', 'a+0']);
  });

  it('a cleared timer never fires', () => {
    const { wall, world, fired, at } = worldOnSimulatedWall();
    const handle = at('poll', 100);
    world.clearTimeout(handle);
    wall.increment(1000);
    expect(fired).toEqual([]);
    expect(world.pendingTimers).toBe(0);
  });

  it('work due now (soon) waits for resume when the world paused before it ran', async () => {
    const world = new WorldClock();
    const ran: string[] = [];
    world.soon(() => ran.push('due now'));
    world.pause('breakpoint');
    await Promise.resolve();
    expect(ran).toEqual([]);
    expect(world.pendingTimers).toBe(1);
    world.step();
    expect(ran).toEqual(['due now']);
  });

  it('every(): a paused world holds the next run too', () => {
    const { wall, world } = worldOnSimulatedWall();
    let runs = 0;
    const stop = every(world, 1000, () => runs++);
    for (let i = 0; i < 3; i++) wall.increment(1000);
    expect(runs).toBe(3);
    world.pause();
    for (let i = 0; i < 10; i++) wall.increment(1000);
    expect(runs).toBe(3);
    world.resume();
    wall.increment(1000);
    expect(runs).toBe(4);
    stop();
    wall.increment(5000);
    expect(runs).toBe(4);
  });

  it('a follower (the worker) takes the page’s time, pauses with it, and steps with it', () => {
    const wall = new SimulatedClock();
    wall.set(5_000_000);
    const page = new WorldClock(wall);
    page.pause();
    wall.increment(8000); // The page's world is now 8 s behind wall time.
    const worker = new WorldClock(wall);
    // What crosses the control channel is validated there (src/server/worker.ts).
    const told = () =>
      worker.sync(WorldClockMessageSchema.parse({ type: 'world-clock', ...page.state }));
    page.subscribe(told);
    told();
    expect(worker.now()).toBe(page.now());
    let stepped = false;
    worker.setTimeout(() => (stepped = true), 300);
    page.setTimeout(() => {}, 500);
    wall.increment(10_000);
    expect(stepped).toBe(false);
    page.step(); // To the page's next timer, 500 ms on: the worker's 300 ms one fell due meanwhile.
    expect(stepped).toBe(true);
    expect(worker.now()).toBe(page.now());
    page.resume();
    page.setRate(0.5);
    wall.increment(1000);
    expect(worker.now()).toBe(page.now());
    expect(worker.rate).toBe(0.5);
  });

  it('T13: a follower that reads the state late (a worker still booting) starts level with the page, not behind it', () => {
    const wall = new SimulatedClock();
    wall.set(5_000_000);
    const page = new WorldClock(wall);
    page.setRate(2);
    const sent = WorldClockMessageSchema.parse({ type: 'world-clock', ...page.state });
    wall.increment(700); // The message waits while the worker's script loads.
    const worker = new WorldClock(wall);
    worker.sync(sent);
    // Behind, the worker's TTLs would pass later than the client reckons them.
    expect(worker.now()).toBe(page.now());
    // Paused, the world did not move while the message waited.
    page.pause();
    const held = WorldClockMessageSchema.parse({ type: 'world-clock', ...page.state });
    wall.increment(700);
    const late = new WorldClock(wall);
    late.sync(held);
    expect(late.now()).toBe(page.now());
  });

  it('the control message refuses a rate outside 0.1..4 and a time that is no number', () => {
    expect(
      WorldClockMessageSchema.safeParse({ type: 'world-clock', paused: true, rate: 10, now: 1 })
        .success,
    ).toBe(false);
    expect(
      WorldClockMessageSchema.safeParse({ type: 'world-clock', paused: 'yes', rate: 1, now: 1 })
        .success,
    ).toBe(false);
    expect(
      WorldClockMessageSchema.safeParse({ type: 'world-clock', paused: true, rate: 1, now: NaN })
        .success,
    ).toBe(false);
  });
  it('goes on from where it stood when the wall clock is set back, and a timer set before fires on time', () => {
    // The wall's timers run on elapsed time (as a browser's do); only its `now` is set back.
    const timers = new SimulatedClock();
    timers.set(1_000_000);
    let setBack = 0;
    const wall = {
      now: () => timers.now() - setBack,
      setTimeout: (callback: () => void, ms: number) => timers.setTimeout(callback, ms),
      clearTimeout: (handle: unknown) => timers.clearTimeout(handle as number),
    };
    const world = new WorldClock(wall);
    const fired: number[] = [];
    world.setTimeout(() => fired.push(world.now()), 1000);
    timers.increment(500);
    expect(world.now()).toBe(1_000_500);
    setBack = 30_000;
    expect(world.now()).toBe(1_000_500);
    timers.increment(499);
    expect(fired).toEqual([]);
    timers.increment(1);
    expect(fired).toEqual([1_001_000]);
    // Paused and resumed after the wall went back again: still no step back.
    world.pause();
    setBack = 60_000;
    world.resume();
    timers.increment(250);
    expect(world.now()).toBe(1_001_250);
  });

  it('T12: with thousands of timers set, each fires once at its due time, earliest first and in the order set, and a cleared one never', () => {
    const { wall, world } = worldOnSimulatedWall();
    const fired: { id: number; world: number }[] = [];
    const cleared = new Set<number>();
    const due = new Map<number, number>();
    // A seeded spread of delays, many sharing a due time, a third cleared before they fire.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let id = 0; id < 3000; id++) {
      const ms = 1 + (next() % 500);
      const handle = world.setTimeout(() => fired.push({ id, world: world.now() }), ms);
      due.set(id, world.now() + ms);
      if (next() % 3 === 0) {
        world.clearTimeout(handle);
        cleared.add(id);
      }
    }
    for (let step = 0; step < 500; step++) wall.increment(1);
    const expected = [...due]
      .filter(([id]) => !cleared.has(id))
      .sort(([a, dueA], [b, dueB]) => dueA - dueB || a - b)
      .map(([id, at]) => ({ id, world: at }));
    expect(fired).toEqual(expected);
    expect(world.pendingTimers).toBe(0);
    expect(world.nextDue).toBeUndefined();
  });

  it('runs a timer set by a firing callback in a later round, even when it is due at once', () => {
    const { wall, world } = worldOnSimulatedWall();
    const order: string[] = [];
    world.setTimeout(() => {
      order.push('first');
      world.setTimeout(() => order.push('set by first'), 0);
    }, 10);
    world.setTimeout(() => order.push('second'), 10);
    wall.increment(10);
    expect(order.slice(0, 2)).toEqual(['first', 'second']);
    wall.increment(0);
    expect(order).toEqual(['first', 'second', 'set by first']);
  });
});
