/**
 * The one owner of the server's Web Worker. It starts the worker, opens
 * links to it (one MessageChannel per connection, handed over with a
 * `connect` control message), and can kill it to show what a crashed
 * server node does to its clients: every link breaks at once, and an
 * in-memory server forgets every task it held.
 */
import type { ConnectMessage } from '../protocol/worker-control.ts';
import { PortTransport } from './port-transport.ts';
import type { Transport } from './transport.ts';

export class ServerWorker {
  #worker: Worker | undefined;
  readonly #transports = new Set<PortTransport>();
  #generation = 0;

  /** Whether a worker is running now. */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** Counts starts, so the UI can say "server node #2" after a restart. */
  get generation(): number {
    return this.#generation;
  }

  /** Starts the worker if it is not running. */
  start(): void {
    if (this.#worker) return;
    // The one form Vite bundles as a separate module worker (STYLE.md).
    this.#worker = new Worker(new URL('../server/worker.ts', import.meta.url), { type: 'module' });
    this.#worker.addEventListener('error', (event) => console.error('[server-worker] worker error', event.message));
    this.#generation++;
  }

  /**
   * Opens a new link to the server, served as `identity`. Rejects when the
   * worker is not running, so a reconnecting client backs off and retries.
   */
  async connect(identity: string): Promise<Transport> {
    const worker = this.#worker;
    if (!worker) throw new Error('server worker is not running');
    for (const transport of this.#transports) if (transport.closed) this.#transports.delete(transport);
    const channel = new MessageChannel();
    const message: ConnectMessage = { type: 'connect', identity };
    worker.postMessage(message, [channel.port2]);
    const transport = new PortTransport(channel.port1);
    this.#transports.add(transport);
    return transport;
  }

  /** Terminates the worker and breaks every link to it. */
  kill(reason = 'server worker killed'): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    // MessagePorts have no close event: without this, clients would wait forever.
    for (const transport of this.#transports) transport.close(reason);
    this.#transports.clear();
  }

  /** Kills the worker and starts a fresh one, with empty memory. */
  restart(): void {
    this.kill('server worker restarted');
    this.start();
  }
}
