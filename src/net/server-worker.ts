/**
 * The one owner of the server's Web Worker. It starts the worker, opens
 * links to it (one MessageChannel per connection, handed over with a
 * `connect` control message), and can kill it to show what a crashed
 * server node does to its clients: every link breaks at once, and an
 * in-memory server forgets every task it held.
 */
import {
  WorkerEventSchema,
  type ConnectMessage,
  type HoldJobsMessage,
  type StartMessage,
  type WorkerEvent,
  type WorldClockMessage,
} from '../protocol/worker-control.ts';
import { pageSlices } from '../clock/frame-slices.ts';
import type { WorldClock } from '../clock/world-clock.ts';
import { PortTransport } from './port-transport.ts';
import type { Transport } from './transport.ts';

export class ServerWorker {
  #worker: Worker | undefined;
  readonly #transports = new Set<PortTransport>();
  #generation = 0;
  /** How every worker is started: which task store its server uses. */
  #start: StartMessage = { type: 'start', store: { kind: 'memory' } };
  /** Whether the jobs' clock is held: a worker started meanwhile starts held too. */
  #jobsHeld = false;
  /** The page's world clock, when the workers follow it: each one is told its state before `start`. */
  #world: (() => WorldClockMessage) | undefined;
  readonly #onEvent: ((event: WorkerEvent) => void) | undefined;

  constructor(options: { onEvent?: (event: WorkerEvent) => void } = {}) {
    this.#onEvent = options.onEvent;
  }

  /** Whether a worker is running now. */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** Counts starts, so the UI can say "server node #2" after a restart. */
  get generation(): number {
    return this.#generation;
  }

  /** Says which task store every worker started from now on uses; the running one keeps its own. */
  configure(start: StartMessage): void {
    this.#start = start;
  }

  /** Starts the worker if it is not running; `start` (kept for later starts) says which task store it uses. */
  start(start?: StartMessage): void {
    if (start) this.#start = start;
    if (this.#worker) return;
    // The one form Vite bundles as a separate module worker (STYLE.md).
    const worker = new Worker(new URL('../server/worker.ts', import.meta.url), { type: 'module' });
    this.#worker = worker;
    worker.addEventListener('error', (event) =>
      console.error('[server-worker] worker error', event.message),
    );
    worker.addEventListener('message', (event: MessageEvent<unknown>) => {
      const parsed = WorkerEventSchema.safeParse(event.data);
      if (parsed.success && this.#worker === worker) this.#onEvent?.(parsed.data);
    });
    // The clock first: the server is built on it, and its first timers are set at start.
    if (this.#world) worker.postMessage(this.#world());
    worker.postMessage(this.#start);
    if (this.#jobsHeld)
      worker.postMessage({ type: 'hold-jobs', held: true } satisfies HoldJobsMessage);
    this.#generation++;
  }

  /** Holds the clock the server's jobs sleep on, or lets it run (the drill holds it while a learner guesses). */
  holdJobs(held: boolean): void {
    if (held === this.#jobsHeld) return;
    this.#jobsHeld = held;
    this.#worker?.postMessage({ type: 'hold-jobs', held } satisfies HoldJobsMessage);
  }

  /**
   * Makes every worker's clock (every timer of its server) follow `clock`, the page's world clock:
   * its state is sent now, on each change, and to each worker started later. Returns the stop.
   */
  followClock(clock: WorldClock): () => void {
    const state = (): WorldClockMessage => ({ type: 'world-clock', ...clock.state });
    this.#world = state;
    this.#worker?.postMessage(state());
    const unsubscribe = clock.subscribe(() => this.#worker?.postMessage(state()));
    return () => {
      unsubscribe();
      if (this.#world === state) this.#world = undefined;
    };
  }

  /**
   * Opens a new link to the server, served as `identity`. Rejects when the
   * worker is not running, so a reconnecting client backs off and retries.
   */
  async connect(identity: string): Promise<Transport> {
    const worker = this.#worker;
    if (!worker) throw new Error('server worker is not running');
    for (const transport of this.#transports)
      if (transport.closed) this.#transports.delete(transport);
    const channel = new MessageChannel();
    // Batched: a burst of polls leaves as one postMessage, and its answers come back as one.
    const message: ConnectMessage = { type: 'connect', identity, batched: true };
    worker.postMessage(message, [channel.port2]);
    // Its batches are cut only where a frame of the page is due (src/clock/frame-slices.ts).
    const transport = new PortTransport(channel.port1, { batched: true, slices: pageSlices() });
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

  /** Kills the worker and starts a fresh one, with empty memory (and, given `start`, another task store). */
  restart(start?: StartMessage): void {
    this.kill('server worker restarted');
    this.start(start);
  }
}
