/**
 * PortTransport over a real MessageChannel, batched as the page's worker
 * ports are (src/protocol/port-batches.ts): what one tick sends leaves as one
 * `postMessage`, in order; each array that arrives is handed on message by
 * message; closing sends what was queued, and a handler that closes the link
 * stops the rest of its batch. Given slices, a batch cut where a frame is
 * due is still handed on in order and exactly once, and a close stops what
 * waits.
 */
import { describe, expect, it, vi } from 'vitest';
import { PortTransport } from '../../../src/net/port-transport.ts';
import { handSlices } from '../helpers/hand-slices.ts';

function pair(): { transport: PortTransport; other: MessagePort; posted: unknown[] } {
  const channel = new MessageChannel();
  const transport = new PortTransport(channel.port1, { batched: true });
  const posted: unknown[] = [];
  channel.port2.addEventListener('message', (event) => posted.push(event.data));
  channel.port2.start();
  return { transport, other: channel.port2, posted };
}

describe('PortTransport, batched', () => {
  it('messages sent in one tick leave as one postMessage, in the order sent', async () => {
    const { transport, other, posted } = pair();
    await transport.start();
    void transport.send({ n: 1 });
    void transport.send({ n: 2 });
    void transport.send({ n: 3 });
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    // A later tick is a later batch.
    await transport.send({ n: 4 });
    await vi.waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]).toEqual([{ n: 4 }]);
    transport.close();
    other.close();
  });

  it('closing sends what was queued before it', async () => {
    const { transport, other, posted } = pair();
    await transport.start();
    void transport.send({ n: 1 });
    transport.close('done');
    await vi.waitFor(() => expect(posted).toEqual([[{ n: 1 }]]));
    await expect(transport.send({ n: 2 })).rejects.toThrow(/closed/);
    other.close();
  });

  it('an arriving batch is handed on in order; a handler that closes the link stops the rest', async () => {
    const { transport, other } = pair();
    const heard: unknown[] = [];
    transport.onmessage = (message) => {
      heard.push(message);
      if ((message as { n: number }).n === 2) transport.close('enough');
    };
    await transport.start();
    other.postMessage([{ n: 1 }, { n: 2 }, { n: 3 }]);
    await vi.waitFor(() => expect(transport.closed).toBe(true));
    expect(heard).toEqual([{ n: 1 }, { n: 2 }]);
    other.close();
  });

  it('sliced: batches cut where a frame is due arrive in order, each once; a close stops what waits', async () => {
    const channel = new MessageChannel();
    const hand = handSlices(3);
    const transport = new PortTransport(channel.port1, { batched: true, slices: hand.slices });
    const heard: number[] = [];
    transport.onmessage = (message) => {
      heard.push((message as { n: number }).n);
      hand.spend(1);
    };
    await transport.start();
    const sent = Array.from({ length: 30 }, (_, n) => ({ n }));
    channel.port2.postMessage(sent.slice(0, 20));
    channel.port2.postMessage(sent.slice(20));
    // Each cut waits for a later task the test runs; the second batch queues behind the first.
    await vi.waitFor(() => {
      hand.runLater();
      expect(heard).toHaveLength(30);
    });
    expect(heard).toEqual(sent.map(({ n }) => n));
    channel.port2.postMessage([{ n: 30 }, { n: 31 }, { n: 32 }, { n: 33 }]);
    await vi.waitFor(() => expect(hand.waiting).toBe(1));
    transport.close();
    while (hand.runLater());
    expect(heard).toEqual([...sent.map(({ n }) => n), 30, 31, 32]);
    channel.port2.close();
  });
});
