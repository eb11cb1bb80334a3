/**
 * Work chunks (src/clock/work-chunks.ts): a round of due timers on the world
 * clock, and a batch of a port's answers, are cut every N items into later
 * tasks, however long each item takes and however much piled up: each task
 * does at most N, in order, each once, none early (T12: a poll may come
 * later than its interval, never sooner). Later tasks run when the test
 * says; no real time passes.
 */
import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { chunkSizeFromAddress } from '../../../src/clock/frame-slices.ts';
import { WorldClock } from '../../../src/clock/world-clock.ts';
import { workChunks } from '../../../src/clock/work-chunks.ts';
import { SlicedDelivery } from '../../../src/net/sliced-delivery.ts';

/** Chunks whose later tasks wait in a queue the test runs, numbering the task each item ran in. */
function handChunks(perTask: number) {
  const waiting: (() => void)[] = [];
  let task = 0;
  const slices = workChunks(perTask, (callback) => waiting.push(callback));
  return {
    slices,
    get task() {
      return task;
    },
    /** Runs the oldest later task; false when none waits. */
    runLater(): boolean {
      const next = waiting.shift();
      if (!next) return false;
      task++;
      next();
      return true;
    },
  };
}

/** How many items ran in each task, by task number. */
function perTask(tasks: readonly number[]): number[] {
  const counts: number[] = [];
  for (const task of tasks) counts[task] = (counts[task] ?? 0) + 1;
  return counts;
}

describe('workChunks', () => {
  it('T12: a round of 1,000 polls due together runs 100 a task, in order, each once, none early', () => {
    const wall = new SimulatedClock();
    wall.set(1_000_000);
    const hand = handChunks(100);
    const world = new WorldClock(wall, { slices: hand.slices });
    const fired: { n: number; task: number; at: number; due: number }[] = [];
    for (let n = 0; n < 1000; n++) {
      // A few due times, so the order is by due time first, then by the order they were set.
      const ms = 250 - (n % 3);
      const due = world.now() + ms;
      world.setTimeout(() => fired.push({ n, task: hand.task, at: world.now(), due }), ms);
    }
    wall.increment(250);
    while (hand.runLater());
    expect(perTask(fired.map((f) => f.task))).toEqual(Array(10).fill(100));
    // Due earliest first: n % 3 == 2 (248 ms), then 1, then 0; within one due time, as set.
    const byDue = [2, 1, 0].flatMap((r) => [...Array(1000).keys()].filter((n) => n % 3 === r));
    expect(fired.map((f) => f.n)).toEqual(byDue);
    for (const f of fired) expect(f.at).toBeGreaterThanOrEqual(f.due);
  });

  it('T12: a world paused in the middle of a round holds the rest; a step runs them', () => {
    const wall = new SimulatedClock();
    wall.set(1_000_000);
    const hand = handChunks(10);
    const world = new WorldClock(wall, { slices: hand.slices });
    const fired: number[] = [];
    for (let n = 0; n < 35; n++) world.setTimeout(() => fired.push(n), 100);
    wall.increment(100);
    expect(fired).toHaveLength(10);
    world.pause('breakpoint');
    while (hand.runLater());
    expect(fired).toHaveLength(10);
    expect(world.step()).toBe(true);
    expect(fired).toEqual([...Array(35).keys()]);
  });

  it('a batch of 1,000 answers is handed on 100 a task, in order, each once', async () => {
    const hand = handChunks(100);
    const heard: { n: number; task: number }[] = [];
    const delivery = new SlicedDelivery(
      (message) => heard.push({ n: message as number, task: hand.task }),
      hand.slices,
    );
    delivery.push([...Array(1000).keys()]);
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    while (hand.runLater()) await settle();
    expect(heard.map((h) => h.n)).toEqual([...Array(1000).keys()]);
    expect(perTask(heard.map((h) => h.task))).toEqual(Array(10).fill(100));
    expect(delivery.pending).toBe(0);
  });

  it('the address asks for chunks as slices=chunks,N', () => {
    expect(chunkSizeFromAddress('?seed=1&slices=chunks,100')).toBe(100);
    expect(chunkSizeFromAddress('?slices=chunks,0')).toBeUndefined();
    expect(chunkSizeFromAddress('?slices=chunks,x')).toBeUndefined();
    expect(chunkSizeFromAddress('?slices=on')).toBeUndefined();
    expect(chunkSizeFromAddress('?seed=1')).toBeUndefined();
  });
});
