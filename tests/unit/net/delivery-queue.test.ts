/**
 * The link's delivery queue against the plain definition it replaces: every
 * item comes out in the order of a stable sort by (due time, entry order),
 * whatever the due times, takes, and changed due times in between.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliveryQueue } from '../../../src/net/delivery-queue.ts';
import { fcParameters } from '../helpers/fc-run.ts';

interface Item {
  deliverAt: number;
  seq: number;
}

const byDue = (a: Item, b: Item) => a.deliverAt - b.deliverAt || a.seq - b.seq;

type Op =
  | { kind: 'push'; deliverAt: number }
  | { kind: 'shift' }
  | { kind: 'release'; upTo: number; at: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), deliverAt: fc.integer({ min: 0, max: 50 }) }),
  fc.record({ kind: fc.constant('shift' as const) }),
  fc.record({
    kind: fc.constant('release' as const),
    upTo: fc.integer({ min: 0, max: 200 }),
    at: fc.integer({ min: 0, max: 50 }),
  }),
);

describe('DeliveryQueue', () => {
  it('takes items in due order, equal due times in entry order, like sorting after every change', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const queue = new DeliveryQueue<Item>();
        let reference: Item[] = [];
        let seq = 0;
        for (const o of ops) {
          if (o.kind === 'push') {
            const item = { deliverAt: o.deliverAt, seq: seq++ };
            queue.push(item);
            reference = [...reference, item].sort(byDue);
          } else if (o.kind === 'shift') {
            expect(queue.shift()).toBe(reference.shift());
          } else {
            // What a released hold does: earlier entries due later are made due now, then re-sorted.
            queue.forEach((item) => {
              if (item.seq < o.upTo && item.deliverAt > o.at) item.deliverAt = o.at;
            });
            queue.resort();
            reference.sort(byDue);
          }
          expect(queue.length).toBe(reference.length);
          expect(queue.peek()).toBe(reference[0]);
        }
        expect(queue.drain()).toEqual(reference);
        expect(queue.length).toBe(0);
      }),
      fcParameters(300),
    );
  });

  it('a long clean stream (each due no earlier than the last) keeps its order across compaction', () => {
    const queue = new DeliveryQueue<Item>();
    const out: number[] = [];
    let seq = 0;
    // Never empty: three in, two out, so the taken slots at the front pile up and are compacted.
    for (let round = 0; round < 2000; round++) {
      for (let i = 0; i < 3; i++) queue.push({ deliverAt: round, seq: seq++ });
      for (let i = 0; i < 2; i++) out.push(queue.shift()!.seq);
    }
    out.push(...queue.drain().map((item) => item.seq));
    expect(out).toEqual(Array.from({ length: seq }, (_, i) => i));
    expect(queue.shift()).toBeUndefined();
  });
});
