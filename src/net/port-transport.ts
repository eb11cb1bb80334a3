/**
 * A Transport over a MessagePort. Closing either side is seen by this side
 * only through `close()`: MessagePorts have no close event, so the network
 * layer (fault injection, worker kill) calls it.
 */
import type { Transport } from './transport.ts';

export class PortTransport implements Transport {
  onmessage?: (message: unknown) => void;
  onclose?: (reason: string) => void;
  onerror?: (error: Error) => void;
  readonly #port: MessagePort;
  #closed = false;

  constructor(port: MessagePort) {
    this.#port = port;
    this.#port.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (!this.#closed) this.onmessage?.(event.data);
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
    this.#port.postMessage(message);
  }

  close(reason = 'closed'): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#port.close();
    this.onclose?.(reason);
  }
}
