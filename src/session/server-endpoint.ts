/**
 * Where the server is, as the page's session sees it: something that can be
 * started with a task store, connected to as an identity, killed and
 * restarted (the fault panel breaks it), and told to hold its jobs' clock.
 * Today's one implementation is the server in a Web Worker
 * ({@link WorkerEndpoint}); a load balancer in front of several workers, a
 * remote server reached over HTTP, or a recorded event stream fit the same
 * shape, so the session and the components never learn which one they have.
 */
import type { WorldClock } from '../clock/world-clock.ts';
import type { ServerControl } from '../net/faulty-network.ts';
import { ServerWorker } from '../net/server-worker.ts';
import type { Transport } from '../net/transport.ts';
import type { StartMessage, WorkerEvent } from '../protocol/worker-control.ts';

export interface ServerEndpoint extends ServerControl {
  /** Whether the server is up now. */
  readonly running: boolean;
  /** 1 for the first server, +1 per restart: a restarted in-memory server has forgotten its tasks. */
  readonly generation: number;
  /** Starts the server if it is down; `start` (kept for later starts) says which task store it uses. */
  start(start: StartMessage): void;
  /** Which task store every server started from now on uses; a running one keeps its own. */
  configure(start: StartMessage): void;
  /** Opens one link, served as `identity`; rejects while the server is down. */
  connect(identity: string): Promise<Transport>;
  /** Stops the server: every link breaks. */
  kill(reason?: string): void;
  /** Kills the server if it runs and starts a fresh one. */
  restart(): void;
  /** Holds the clock the server's jobs sleep on, or lets it run. */
  holdJobs(held: boolean): void;
  /**
   * Makes the server's every timer (job steps, leases, TTLs) follow the page's world clock, so
   * pausing the world pauses the server too; returns the stop. Absent: the server keeps its own
   * time (a remote server), and only the page and the network can pause.
   */
  followClock?(clock: WorldClock): () => void;
  /** What the server said about its store (`ready`, or it could not open it); returns the unsubscribe. */
  onEvent(listener: (event: WorkerEvent) => void): () => void;
  /** The page goes away: a server that lives with the page (a worker) ends; one that outlives it stays. */
  release(reason: string): void;
  /** The page's journal database for this server's tasks (a task is polled only where it was made); the built-in one when absent. */
  readonly journalName?: string;
  /** A server the page does not run (the learner's own, over HTTP): nothing tells the page what its store holds. */
  readonly remote?: boolean;
  /**
   * Which server node each message went to or came from, for an endpoint of
   * several (a cluster behind a balancer); returns the unsubscribe. A single
   * server has none.
   */
  onServed?(listener: (report: ServedReport) => void): () => void;
}

/** A message the endpoint forwarded to (`out`) or from (`in`) one of its nodes, 1 to 5. */
export interface ServedReport {
  message: unknown;
  node: number;
  direction: 'out' | 'in';
}

/** The server in a Web Worker of this page. */
export class WorkerEndpoint implements ServerEndpoint {
  readonly #listeners = new Set<(event: WorkerEvent) => void>();
  readonly #worker = new ServerWorker({
    onEvent: (event) => {
      for (const listener of this.#listeners) listener(event);
    },
  });

  get running(): boolean {
    return this.#worker.running;
  }

  get generation(): number {
    return this.#worker.generation;
  }

  start(start: StartMessage): void {
    this.#worker.start(start);
  }

  configure(start: StartMessage): void {
    this.#worker.configure(start);
  }

  connect(identity: string): Promise<Transport> {
    return this.#worker.connect(identity);
  }

  kill(reason?: string): void {
    this.#worker.kill(reason);
  }

  restart(): void {
    this.#worker.restart();
  }

  holdJobs(held: boolean): void {
    this.#worker.holdJobs(held);
  }

  followClock(clock: WorldClock): () => void {
    return this.#worker.followClock(clock);
  }

  onEvent(listener: (event: WorkerEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  release(reason: string): void {
    this.#worker.kill(reason);
  }
}
