/**
 * A Transport over a MessagePort. Closing either side is seen by this side
 * only through `close()`: MessagePorts have no close event, so the network
 * layer (fault injection, worker kill) calls it.
 *
 * With `batched` (agreed with the server worker in its connect message),
 * what is sent in one tick leaves as one `postMessage` of an array, and
 * each array that arrives is handed on message by message, in order
 * (src/protocol/port-batches.ts).
 */
import { messagesOf, PortBatcher } from '../protocol/port-batches.ts';
import type { Transport } from './transport.ts';

export class PortTransport implements Transport {
  onmessage?: (message: unknown) => void;
  onclose?: (reason: string) => void;
  onerror?: (error: Error) => void;
  readonly #port: MessagePort;
  readonly #batcher: PortBatcher | undefined;
  #closed = false;

  constructor(port: MessagePort, options: { batched?: boolean } = {}) {
    this.#port = port;
    const batched = options.batched === true;
    this.#batcher = batched ? new PortBatcher((batch) => port.postMessage(batch)) : undefined;
    this.#port.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (!batched) {
        if (!this.#closed) this.onmessage?.(event.data);
        return;
      }
      // A message handler may close the link: what follows it in the batch is not handed on.
      for (const message of messagesOf(event.data)) {
        if (this.#closed) return;
        this.onmessage?.(message);
      }
    });
    this.#port.addEventListener('messageerror', () =>
      this.onerror?.(new Error('a message from the server could not be read')),
    );
  }

  get closed(): boolean {
    return this.#closed;
  }

  async start(): Promise<void> {
    // Without start(), a port used through addEventListener never delivers (comlink does the same).
    this.#port.start();
  }

  async send(message: unknown): Promise<void> {
    if (this.#closed) throw new Error('transport is closed');
    if (this.#batcher) this.#batcher.send(message);
    else this.#port.postMessage(message);
  }

  close(reason = 'closed'): void {
    if (this.#closed) return;
    this.#closed = true;
    // What was sent before the close leaves, as it would have unbatched.
    this.#batcher?.flush();
    this.#port.close();
    this.onclose?.(reason);
  }
}
