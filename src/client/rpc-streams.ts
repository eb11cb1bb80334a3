/**
 * The notification streams an RpcClient has open (C9): requests such as
 * `subscriptions/listen` that get no response while they last. Each dies
 * with the link it was opened on and is never re-issued.
 */
import type { Transport } from '../net/transport.ts';
import type { CallOptions } from './rpc-client.ts';
import type { CallError } from './rpc-error.ts';

/** A request that opens a notification stream (C9). */
export interface StreamOptions extends CallOptions {
  /** The server refused the stream with a JSON-RPC error. */
  onerror?: (error: CallError) => void;
  /** The stream ended: its link broke, the server ended it, or the client was closed. */
  onclose?: (reason: string) => void;
}

/** An open notification stream; its notifications carry its `id` as subscriptionId (C9). */
export interface StreamHandle {
  readonly id: number;
  /** Ends it with `notifications/cancelled` when its link is still up. */
  close(reason?: string): void;
}

export class StreamTable {
  readonly #streams = new Map<number, { transport: Transport; options: StreamOptions }>();

  add(id: number, transport: Transport, options: StreamOptions): void {
    this.#streams.set(id, { transport, options });
  }

  /** Forgets a stream the client ended; false if it had already ended. */
  remove(id: number): boolean {
    return this.#streams.delete(id);
  }

  /** Ends every stream on `transport` (every stream, without one), telling each why. */
  end(reason: string, transport?: Transport): void {
    for (const [id, stream] of [...this.#streams]) {
      if (transport && stream.transport !== transport) continue;
      this.#streams.delete(id);
      stream.options.onclose?.(reason);
    }
  }

  /** A response to a stream's request: an error refuses it; a result ends it. False: not a stream's. */
  answered(id: string | number | null, error?: CallError): boolean {
    const stream = typeof id === 'number' ? this.#streams.get(id) : undefined;
    if (!stream || typeof id !== 'number') return false;
    this.#streams.delete(id);
    if (error) stream.options.onerror?.(error);
    stream.options.onclose?.(error ? error.message : 'ended by the server');
    return true;
  }
}
