/**
 * SlicedDelivery (src/net/sliced-delivery.ts): a batched port's messages are
 * handed on in slices of a time budget, on a simulated clock here (each
 * message "costs" the ms the test says, and a yield ends only when the test
 * lets it). Every message arrives exactly once and in the order it came,
 * whatever the slicing; a slice stops once it used its budget; a stopped
 * delivery hands nothing more on.
 *
 * Seeded and bounded (see helpers/fc-run.ts for FC_SEED, FC_RUNS, FC_PATH).
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { SlicedDelivery, type SlicePace } from '../../../src/net/sliced-delivery.ts';
import { fcParameters } from '../helpers/fc-run.ts';

/** A simulated pace: time moves only by `spend`; each yield waits until `release()`. */
function simulatedPace() {
  let now = 0;
  const waiting: (() => void)[] = [];
  const pace: SlicePace = {
    now: () => now,
    yield: () => new Promise<void>((resolve) => waiting.push(resolve)),
  };
  return {
    pace,
    spend: (ms: number) => (now += ms),
    get yields() {
      return waiting.length;
    },
    /** Ends the oldest yield, and lets the slice after it run (its microtasks included). */
    async release() {
      waiting.shift()?.();
      await flushMicrotasks();
    },
  };
}

/** Enough microtask turns for a slice of a few hundred messages to run to its next yield. */
async function flushMicrotasks(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe('SlicedDelivery', () => {
  it('hands the first message on at once, the rest of its slice in microtasks, and stops at the budget', async () => {
    const clock = simulatedPace();
    const heard: number[] = [];
    const delivery = new SlicedDelivery(
      (message) => {
        heard.push(message as number);
        clock.spend(1);
      },
      { pace: clock.pace, budgetMs: 4 },
    );
    delivery.push([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(heard).toEqual([1]);
    await flushMicrotasks();
    // 4 ms of budget at 1 ms each: four messages, then a yield.
    expect(heard).toEqual([1, 2, 3, 4]);
    expect(clock.yields).toBe(1);
    expect(delivery.pending).toBe(6);
    await clock.release();
    expect(heard).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await clock.release();
    expect(heard).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(clock.yields).toBe(0);
    expect(delivery.pending).toBe(0);
  });

  it('a batch that arrives while a slice waits queues behind it, in order', async () => {
    const clock = simulatedPace();
    const heard: string[] = [];
    const delivery = new SlicedDelivery(
      (message) => {
        heard.push(message as string);
        clock.spend(2);
      },
      { pace: clock.pace, budgetMs: 4 },
    );
    delivery.push(['a1', 'a2', 'a3']);
    await flushMicrotasks();
    expect(heard).toEqual(['a1', 'a2']);
    delivery.push(['b1', 'b2']);
    // Nothing overtakes: the new batch waits behind a3.
    expect(heard).toEqual(['a1', 'a2']);
    await clock.release();
    await clock.release();
    expect(heard).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
  });

  it("each message's microtasks run before the next message is handed on", async () => {
    const clock = simulatedPace();
    const order: string[] = [];
    const delivery = new SlicedDelivery(
      (message) => {
        order.push(`deliver ${String(message)}`);
        void Promise.resolve().then(() => order.push(`after ${String(message)}`));
      },
      { pace: clock.pace },
    );
    delivery.push([1, 2]);
    await flushMicrotasks();
    expect(order).toEqual(['deliver 1', 'after 1', 'deliver 2', 'after 2']);
  });

  it('stopped (the link closed), it hands on nothing more, even what already waited', async () => {
    const clock = simulatedPace();
    const heard: number[] = [];
    const delivery = new SlicedDelivery(
      (message) => {
        heard.push(message as number);
        clock.spend(3);
      },
      { pace: clock.pace, budgetMs: 3 },
    );
    delivery.push([1, 2, 3]);
    await flushMicrotasks();
    expect(heard).toEqual([1]);
    delivery.stop();
    await clock.release();
    delivery.push([4]);
    await flushMicrotasks();
    expect(heard).toEqual([1]);
    expect(delivery.pending).toBe(0);
  });

  it('a handler that throws: the error surfaces, and the messages after it still arrive', async () => {
    const clock = simulatedPace();
    const surfaced: (() => void)[] = [];
    const spy = vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((callback) => {
      surfaced.push(callback);
    });
    const heard: number[] = [];
    try {
      const delivery = new SlicedDelivery(
        (message) => {
          if (message === 2) throw new Error('bad handler');
          heard.push(message as number);
        },
        { pace: clock.pace },
      );
      delivery.push([1, 2, 3]);
      await flushMicrotasks();
    } finally {
      spy.mockRestore();
    }
    expect(heard).toEqual([1, 3]);
    expect(surfaced).toHaveLength(1);
    expect(() => surfaced[0]!()).toThrow('bad handler');
  });

  it('any batches, costs and budget: every message exactly once, in order; no slice runs past its budget by more than one message', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 40 }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: 1, max: 12 }),
        async (batches, budgetMs) => {
          const clock = simulatedPace();
          // Each message is its cost in ms, tagged with its place so order and uniqueness show.
          const sent = batches.flatMap((batch, b) => batch.map((cost, i) => ({ b, i, cost })));
          const heard: typeof sent = [];
          const slices: number[] = [0];
          const delivery = new SlicedDelivery(
            (message) => {
              const m = sent.find((s) => s === message)!;
              heard.push(m);
              clock.spend(m.cost);
              slices[slices.length - 1]! += m.cost;
            },
            { pace: clock.pace, budgetMs },
          );
          let next = 0;
          for (let guard = 0; guard < 10_000; guard++) {
            if (next < batches.length) {
              // A batch that finds nothing waiting starts a slice of its own (a new task).
              if (delivery.pending === 0 && clock.yields === 0) slices.push(0);
              const from = sent.findIndex((s) => s.b === next);
              delivery.push(sent.slice(from, from + batches[next]!.length));
              next++;
            }
            await flushMicrotasks();
            if (clock.yields === 0 && next === batches.length) break;
            if (clock.yields > 0) {
              slices.push(0);
              await clock.release();
            }
          }
          expect(heard).toEqual(sent);
          expect(new Set(heard).size).toBe(sent.length);
          for (const spent of slices) expect(spent).toBeLessThan(budgetMs + 5 + 1);
        },
      ),
      fcParameters(60),
    );
  });
});
