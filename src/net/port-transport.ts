/**
 * A Transport over a MessagePort. Closing either side is seen by this side
 * only through `close()`: MessagePorts have no close event, so the network
 * layer (fault injection, worker kill) calls it.
 *
 * With `batched` (agreed with the server worker in its connect message),
 * what is sent in one tick leaves as one `postMessage` of an array, and
 * each array that arrives is handed on message by message, in order
 * (src/protocol/port-batches.ts), in slices of the main thread that let a
 * frame be drawn between them (sliced-delivery.ts): a batch of hundreds of
 * replies is no long task.
 */
import { messagesOf, PortBatcher } from '../protocol/port-batches.ts';
import { SlicedDelivery, type SlicePace } from './sliced-delivery.ts';
import type { Transport } from './transport.ts';

export class PortTransport implements Transport {
  onmessage?: (message: unknown) => void;
  onclose?: (reason: string) => void;
  onerror?: (error: Error) => void;
  readonly #port: MessagePort;
  readonly #batcher: PortBatcher | undefined;
  readonly #incoming: SlicedDelivery | undefined;
  #closed = false;

  /** `pace` times and separates the slices an arriving batch is handed on in (tests: a simulated one). */
  constructor(port: MessagePort, options: { batched?: boolean; pace?: SlicePace } = {}) {
    this.#port = port;
    const batched = options.batched === true;
    this.#batcher = batched ? new PortBatcher((batch) => port.postMessage(batch)) : undefined;
    this.#incoming = batched
      ? new SlicedDelivery((message) => this.onmessage?.(message), { pace: options.pace })
      : undefined;
    this.#port.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (this.#closed) return;
      if (this.#incoming) this.#incoming.push(messagesOf(event.data));
      else this.onmessage?.(event.data);
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
    // A message handler may close the link: what arrived after it is not handed on.
    this.#incoming?.stop();
    this.#port.close();
    this.onclose?.(reason);
  }
}
