/**
 * SlicedDelivery (src/net/sliced-delivery.ts): a batched port's messages are
 * handed on in slices that end when the slices say a frame is due (here: a
 * budget on a hand-stepped clock, each message "costing" what the test says,
 * each later task run when the test says). Every message arrives exactly
 * once and in the order it came, whatever the cuts; a batch that fits is
 * handed on in the task it arrived in; a stopped delivery hands nothing more on.
 *
 * Seeded and bounded (see helpers/fc-run.ts for FC_SEED, FC_RUNS, FC_PATH).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SlicedDelivery } from '../../../src/net/sliced-delivery.ts';
import { fcParameters } from '../helpers/fc-run.ts';
import { handSlices } from '../helpers/hand-slices.ts';

/** Enough microtask turns for a slice of a few hundred messages to run to its cut. */
async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe('SlicedDelivery', () => {
  it('in order and exactly once, however the batches come and the slices cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.nat(4), { minLength: 1, maxLength: 30 }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        async (batches, budgetMs, laterBeforeNext) => {
          const hand = handSlices(budgetMs);
          const heard: number[] = [];
          const costs = batches.flat();
          const delivery = new SlicedDelivery((message) => {
            heard.push(message as number);
            hand.spend(costs[message as number]!);
          }, hand.slices);
          let n = 0;
          for (const [index, batch] of batches.entries()) {
            delivery.push(batch.map(() => n++));
            await settle();
            // Sometimes the next batch comes before the cut one went on: it must queue behind.
            if (laterBeforeNext[index]) while (hand.runLater()) await settle();
          }
          while (hand.runLater()) await settle();
          expect(heard).toEqual([...Array(costs.length).keys()]);
          expect(delivery.pending).toBe(0);
        },
      ),
      fcParameters(150),
    );
  });

  it('a batch that fits between two frames is handed on in the task it arrived in', async () => {
    const hand = handSlices(100);
    const heard: number[] = [];
    const delivery = new SlicedDelivery((message) => {
      heard.push(message as number);
      hand.spend(1);
    }, hand.slices);
    delivery.push([1, 2, 3, 4, 5]);
    await settle();
    expect(heard).toEqual([1, 2, 3, 4, 5]);
    expect(hand.waiting).toBe(0);
  });

  it('cut once a frame is due; the rest goes on in a later task, and a new batch queues behind it', async () => {
    const hand = handSlices(4);
    const heard: string[] = [];
    const delivery = new SlicedDelivery((message) => {
      heard.push(message as string);
      hand.spend(2);
    }, hand.slices);
    delivery.push(['a1', 'a2', 'a3']);
    await settle();
    expect(heard).toEqual(['a1', 'a2']);
    expect(delivery.pending).toBe(1);
    delivery.push(['b1']);
    await settle();
    expect(heard).toEqual(['a1', 'a2']);
    hand.runLater();
    await settle();
    expect(heard).toEqual(['a1', 'a2', 'a3', 'b1']);
  });

  it("each message's microtasks run before the next message is handed on", async () => {
    const hand = handSlices(100);
    const order: string[] = [];
    const delivery = new SlicedDelivery((message) => {
      order.push(`deliver ${String(message)}`);
      void Promise.resolve().then(() => order.push(`after ${String(message)}`));
    }, hand.slices);
    delivery.push([1, 2]);
    await settle();
    expect(order).toEqual(['deliver 1', 'after 1', 'deliver 2', 'after 2']);
  });

  it('stopped (the link closed), it hands on nothing more, even what already waited', async () => {
    const hand = handSlices(3);
    const heard: number[] = [];
    const delivery = new SlicedDelivery((message) => {
      heard.push(message as number);
      hand.spend(3);
    }, hand.slices);
    delivery.push([1, 2, 3]);
    await settle();
    expect(heard).toEqual([1]);
    delivery.stop();
    while (hand.runLater()) await settle();
    delivery.push([4]);
    await settle();
    expect(heard).toEqual([1]);
    expect(delivery.pending).toBe(0);
  });

  it('a handler that throws: the error surfaces, and the messages after it still arrive', async () => {
    const hand = handSlices(100);
    const heard: number[] = [];
    const surfaced: unknown[] = [];
    const onError = (error: unknown) => surfaced.push(error);
    process.on('uncaughtException', onError);
    try {
      const delivery = new SlicedDelivery((message) => {
        if (message === 2) throw new Error('bad handler');
        heard.push(message as number);
      }, hand.slices);
      delivery.push([1, 2, 3]);
      await settle();
      expect(heard).toEqual([1, 3]);
      expect(surfaced).toHaveLength(1);
    } finally {
      process.off('uncaughtException', onError);
    }
  });
});
