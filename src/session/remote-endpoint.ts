/**
 * A remote server reached over Streamable HTTP, as a {@link ServerEndpoint}:
 * the learner's own server. Each link is an {@link HttpTransport}; opening
 * one first asks `server/discover`, so a connect attempt fails (and the
 * client backs off) with a reason when the server cannot be used, and the
 * page shows what the server said about itself.
 *
 * What the page cannot do to a server it does not run is refused here and
 * said on screen: it cannot kill or restart it, hold its jobs, choose or see
 * its task store. Faults act on the client's side of the real link only
 * (latency, loss, drop, offline: the session's network wraps every link).
 */
import { HttpTransport, type FetchLike } from '../net/http-transport.ts';
import { realScheduler, type Scheduler } from '../net/scheduler.ts';
import type { Transport } from '../net/transport.ts';
import type { ServerEndpoint } from './server-endpoint.ts';
import { diagnose, discover, type Discovery, type RemoteProblem } from './server-discovery.ts';

export interface RemoteServerOptions {
  url: URL;
  /** Sent as `Authorization: Bearer <token>` on every request. */
  token?: string | undefined;
  fetch?: FetchLike;
  scheduler?: Scheduler;
  /** How long a request waits for its answer's headers. */
  timeoutMs?: number;
  /** This page's origin, named when CORS blocks it. */
  origin?: string;
}

/** What the page knows about the remote server now. */
export interface RemoteStatus {
  readonly url: string;
  readonly withToken: boolean;
  /** What the last `server/discover` said; kept while the server cannot be reached. */
  readonly discovery: Discovery | undefined;
  /** Why the last connect attempt failed; cleared by the next that works. */
  readonly problem: RemoteProblem | undefined;
  /** Connect attempts that worked. */
  readonly connects: number;
}

/** The page's journal for tasks of the server at `url`: a server's tasks are polled only there. */
export function journalNameFor(url: URL): string {
  return `mcp-tasks-playground-page@${url.href}`;
}

export class RemoteEndpoint implements ServerEndpoint {
  /** A server the page does not run is up as far as the page can tell; a connect attempt finds out. */
  readonly running = true;
  readonly generation = 1;
  readonly remote = true;
  readonly journalName: string;
  readonly #options: RemoteServerOptions;
  readonly #listeners = new Set<(status: RemoteStatus) => void>();
  #status: RemoteStatus;

  constructor(options: RemoteServerOptions) {
    this.#options = options;
    this.journalName = journalNameFor(options.url);
    this.#status = {
      url: options.url.href,
      withToken: Boolean(options.token),
      discovery: undefined,
      problem: undefined,
      connects: 0,
    };
  }

  get status(): RemoteStatus {
    return this.#status;
  }

  /** Hears every change of {@link status}; returns the unsubscribe. */
  onStatus(listener: (status: RemoteStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  start(): void {}

  configure(): void {}

  /** Opens a link after a `server/discover`; rejects saying why the server cannot be used. Every identity sends the one token. */
  async connect(): Promise<Transport> {
    const { url, token, scheduler = realScheduler } = this.#options;
    const fetchFn = this.#options.fetch ?? ((input, init) => fetch(input, init));
    const transport = new HttpTransport({
      url,
      token,
      fetch: fetchFn,
      scheduler,
      ...(this.#options.timeoutMs !== undefined ? { timeoutMs: this.#options.timeoutMs } : {}),
    });
    await transport.start();
    try {
      const discovery = await discover(transport, 'mcp-tasks-playground-page');
      this.#set({ discovery, problem: undefined, connects: this.#status.connects + 1 });
      return transport;
    } catch (error) {
      transport.close('connect attempt failed');
      const problem = await diagnose(error, url, fetchFn, this.#options.origin);
      this.#set({ problem });
      throw new Error(problem.message, { cause: error });
    }
  }

  /** Not possible: the page does not run this server. The connect panel says so. */
  kill(): void {}

  /** Not possible either. */
  restart(): void {}

  /** Not possible: the server's jobs run on its own clock. */
  holdJobs(): void {}

  /** A remote server tells the page nothing about its store. */
  onEvent(): () => void {
    return () => {};
  }

  /** The server outlives the page. */
  release(): void {}

  #set(change: Partial<RemoteStatus>): void {
    this.#status = { ...this.#status, ...change };
    for (const listener of this.#listeners) listener(this.#status);
  }
}
