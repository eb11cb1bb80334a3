/**
 * A Transport over a MessagePort. Closing either side is seen by this side
 * only through `close()`: MessagePorts have no close event, so the network
 * layer (fault injection, worker kill) calls it.
 *
 * With `batched` (agreed with the server worker in its connect message),
 * what is sent in one tick leaves as one `postMessage` of an array, and
 * each array that arrives is handed on message by message, in order
 * (src/protocol/port-batches.ts). Given the page's `slices`, a batch is cut
 * into several tasks when a frame is due (sliced-delivery.ts), else handed
 * on whole in the task it arrived in.
 */
import { wholeTasks, type Slices } from '../clock/frame-slices.ts';
import { messagesOf, PortBatcher } from '../protocol/port-batches.ts';
import { SlicedDelivery } from './sliced-delivery.ts';
import type { Transport } from './transport.ts';

export class PortTransport implements Transport {
  onmessage?: (message: unknown) => void;
  onclose?: (reason: string) => void;
  onerror?: (error: Error) => void;
  readonly #port: MessagePort;
  readonly #batcher: PortBatcher | undefined;
  /** A batched port's arrivals when they may be cut into slices (the page's main thread). */
  readonly #sliced: SlicedDelivery | undefined;
  #closed = false;

  /** `slices` (batched ports only; the page: `pageSlices()`): where an arriving batch may be cut so a frame can be drawn. */
  constructor(port: MessagePort, options: { batched?: boolean; slices?: Slices } = {}) {
    this.#port = port;
    const batched = options.batched === true;
    this.#batcher = batched ? new PortBatcher((batch) => port.postMessage(batch)) : undefined;
    const slices = options.slices ?? wholeTasks;
    this.#sliced =
      batched && slices !== wholeTasks
        ? new SlicedDelivery((message) => this.onmessage?.(message), slices)
        : undefined;
    this.#port.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (!batched) {
        if (!this.#closed) this.onmessage?.(event.data);
        return;
      }
      if (this.#sliced) {
        if (!this.#closed) this.#sliced.push(messagesOf(event.data));
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
    // A message handler may close the link: what arrived after it is not handed on.
    this.#sliced?.stop();
    this.#port.close();
    this.onclose?.(reason);
  }
}
