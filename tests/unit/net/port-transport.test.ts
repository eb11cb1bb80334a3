/**
 * PortTransport over a real MessageChannel, batched as the page's worker
 * ports are (src/protocol/port-batches.ts): what one tick sends leaves as one
 * `postMessage`, in order; each array that arrives is handed on message by
 * message; closing sends what was queued, and a handler that closes the link
 * stops the rest of its batch.
 */
import { describe, expect, it, vi } from 'vitest';
import { PortTransport } from '../../../src/net/port-transport.ts';

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
});
