/**
 * Test doubles for the network layer: a Transport standing in for the real
 * MessagePort to a server, which records what reaches the server and lets
 * the test speak as the server.
 */
import { RpcClient } from '../../../src/client/rpc-client.ts';
import type { Transport } from '../../../src/net/transport.ts';

export class FakeServerEnd implements Transport {
  /** Messages that reached the server, in order. */
  readonly received: unknown[] = [];
  onmessage?: (message: unknown) => void;
  onclose?: (reason: string) => void;
  closed = false;
  closeReason: string | undefined;
  /** Called for each message that reaches the server. */
  onreceive?: (message: unknown) => void;

  async start(): Promise<void> {}

  async send(message: unknown): Promise<void> {
    if (this.closed) throw new Error('transport is closed');
    this.received.push(message);
    this.onreceive?.(message);
  }

  close(reason = 'closed'): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    this.onclose?.(reason);
  }

  /** The server sends `message` to the page. */
  reply(message: unknown): void {
    if (!this.closed) this.onmessage?.(message);
  }
}

export const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});
export const result = (id: number, value: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  result: value,
});

/** A started client whose server is the test: every request is answered with what `answer` gives now. */
export async function clientAnswering(answer: () => Record<string, unknown>): Promise<RpcClient> {
  const end = new FakeServerEnd();
  end.onreceive = (message) => {
    const id = (message as { id?: unknown }).id;
    if (typeof id === 'number') queueMicrotask(() => end.reply(result(id, answer())));
  };
  const client = new RpcClient({
    clientInfo: { name: 'test', version: '1' },
    connect: async () => end,
  });
  await client.start();
  return client;
}
