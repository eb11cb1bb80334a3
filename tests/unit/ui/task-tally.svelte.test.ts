/**
 * `TaskTally`: the finished count ("Clear finished") and the tasks asking for
 * input (the card window draws them wherever they are, T14), kept from each
 * task's flags as they flip, never by walking the list. Run with Svelte's
 * client runtime (effects), flushed by hand.
 */
import { flushSync } from 'svelte';
import { expect, it } from 'vitest';
import { TaskTally } from '../../../src/ui/state/task-tally.svelte.ts';

/** A task whose flags the test flips, counting how often each is read. */
class FakeTask {
  #done = $state(false);
  #asks = $state(false);
  reads = 0;
  get done(): boolean {
    this.reads++;
    return this.#done;
  }
  set done(value: boolean) {
    this.#done = value;
  }
  get asksForInput(): boolean {
    return this.#asks;
  }
  set asksForInput(value: boolean) {
    this.#asks = value;
  }
}

it('T14: the finished count and the askers follow each task flag as it flips, and a task that leaves the list leaves both', () => {
  const tally = new TaskTally<FakeTask>();
  const [a, b, c] = [new FakeTask(), new FakeTask(), new FakeTask()];
  tally.follow([a, b, c]);
  flushSync();
  expect(tally.finished).toBe(0);
  expect([...tally.askers]).toEqual([]);

  b.asksForInput = true;
  a.done = true;
  flushSync();
  expect(tally.finished).toBe(1);
  expect([...tally.askers]).toEqual([b]);

  b.asksForInput = false;
  b.done = true;
  flushSync();
  expect(tally.finished).toBe(2);
  expect([...tally.askers]).toEqual([]);

  c.asksForInput = true;
  flushSync();
  tally.follow([b]); // "Clear finished" took a, and c was dismissed
  flushSync();
  expect(tally.finished).toBe(1);
  expect([...tally.askers]).toEqual([]);
  tally.stop();
  expect(tally.finished).toBe(0);
});

it('T14: a task joining a long list reads no other task flag: the cost of a new task does not grow with the list', () => {
  const tally = new TaskTally<FakeTask>();
  const tasks = Array.from({ length: 500 }, () => new FakeTask());
  for (let i = 1; i <= tasks.length; i++) {
    tally.follow(tasks.slice(0, i));
    flushSync();
  }
  // Each task's flag read once when it joined, none re-read as the others joined.
  expect(tasks.map((t) => t.reads)).toEqual(tasks.map(() => 1));
  tasks[0]!.done = true;
  flushSync();
  expect(tally.finished).toBe(1);
  expect(tasks.reduce((sum, t) => sum + t.reads, 0)).toBe(501);
  tally.stop();
});
