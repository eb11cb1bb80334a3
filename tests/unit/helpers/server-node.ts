/**
 * The server side of the real stack: a `PlaygroundServer` (memory or
 * IndexedDB store) served by the port host over an in-process
 * MessageChannel, as the page's session reaches it: a `ServerEndpoint`.
 * A "kill" closes the host and a restart starts a fresh server on the same
 * store, which adopts the orphaned jobs.
 */
import { requestMeta } from '../../../src/protocol/envelope.ts';
import type { Transport } from '../../../src/net/transport.ts';
import { IdbTaskStore } from '../../../src/server/idb/idb-task-store.ts';
import { MemoryTaskStore } from '../../../src/server/memory-task-store.ts';
import {
  createPlaygroundServer,
  type PlaygroundServer,
  type PlaygroundServerOptions,
} from '../../../src/server/playground-server.ts';
import { servePort, viaHttpEntry, type PortLike } from '../../../src/server/port-host.ts';
import { XrayTaskStore } from '../../../src/server/store-xray.ts';
import type { TaskStore } from '../../../src/server/task-store.ts';
import type { StartMessage, WorkerEvent } from '../../../src/protocol/worker-control.ts';
import type { ServerEndpoint } from '../../../src/session/server-endpoint.ts';
import { ObservedStore, type Ledger } from './ledger.ts';

/** One end of an in-process MessageChannel: structured clone, delivery as a microtask. */
class LocalPort implements PortLike {
  other: LocalPort | undefined;
  closed = false;
  readonly #listeners: ((event: { data: unknown }) => void)[] = [];
  constructor(readonly onPost: (message: unknown) => void = () => {}) {}
  postMessage(message: unknown): void {
    const target = this.other;
    // Seen even when the other end has gone: what was sent counts, whether or not the link carried it.
    if (!this.closed) this.onPost(message);
    if (this.closed || !target || target.closed) return;
    const copy = structuredClone(message);
    queueMicrotask(() => {
      if (!target.closed) for (const listener of target.#listeners) listener({ data: copy });
    });
  }
  addEventListener(_type: 'message', listener: (event: { data: unknown }) => void): void {
    this.#listeners.push(listener);
  }
  close(): void {
    this.closed = true;
  }
}

/** The page's side of a link to the server node. */
class LocalTransport implements Transport {
  onmessage?: (message: unknown) => void;
  onclose?: (reason: string) => void;
  #closed = false;
  constructor(readonly port: LocalPort) {
    port.addEventListener('message', (event) => {
      if (!this.#closed) this.onmessage?.(event.data);
    });
  }
  async start(): Promise<void> {}

  async send(message: unknown): Promise<void> {
    if (this.#closed) throw new Error('transport is closed');
    this.port.postMessage(message);
  }
  close(reason = 'closed'): void {
    if (this.#closed) return;
    this.#closed = true;
    this.port.close();
    this.onclose?.(reason);
  }
}

export type StoreKind = 'memory' | 'idb';

interface RunningServer {
  server: PlaygroundServer;
  /** Tells what the store holds, then `ready`: the x-ray a freshly started page hears. */
  tellStore(): Promise<void>;
  close(): Promise<void>;
}

let databases = 0;

/**
 * The server "worker": a playground server on a store that outlives it. Kill
 * closes the host (its jobs stop writing, their leases run out); restart
 * starts a fresh server on the same store, which adopts the orphaned jobs.
 */
export class ServerNode implements ServerEndpoint {
  running = true;
  generation = 1;
  readonly #ledger: Ledger;
  readonly #kind: StoreKind;
  readonly #options: PlaygroundServerOptions;
  readonly #memory: TaskStore;
  readonly #dbName = `property-${process.pid}-${++databases}`;
  #server: Promise<RunningServer>;
  readonly #links = new Set<{ close(reason: string): void }>();
  readonly #closing: Promise<void>[] = [];
  #kills = 0;
  /** From the cluster's start message: the T8 bug on purpose, read when a server starts. */
  #earlyHandleMs = 0;
  readonly #listeners = new Set<(event: WorkerEvent) => void>();

  constructor(kind: StoreKind, ledger: Ledger, options: PlaygroundServerOptions) {
    this.#kind = kind;
    this.#ledger = ledger;
    this.#options = options;
    // One instance across restarts: a store that outlives the worker, as IndexedDB does (or the
    // test's own, which several nodes of a cluster then share).
    this.#memory = options.store ?? new MemoryTaskStore();
    this.#server = this.#start();
  }

  async #start(): Promise<RunningServer> {
    const generation = this.generation;
    const idb = this.#kind === 'idb' ? await IdbTaskStore.open(this.#dbName) : undefined;
    // The x-ray, as the worker tells it (src/server/worker.ts); a server that has gone tells nothing.
    const tell = (event: WorkerEvent): void => {
      if (this.running && generation === this.generation)
        for (const listener of this.#listeners) listener(event);
    };
    const store = new XrayTaskStore(new ObservedStore(idb ?? this.#memory, this.#ledger), tell);
    const tellStore = async (): Promise<void> => {
      await store.tellAll();
      tell({ type: 'ready', store: this.#kind === 'idb' ? 'indexeddb' : 'memory' });
    };
    await tellStore();
    const early = this.#earlyHandleMs > 0 ? { earlyHandleMs: this.#earlyHandleMs } : {};
    const server = createPlaygroundServer({ ...this.#options, ...early, store });
    return {
      server,
      tellStore,
      close: async () => {
        store.stop();
        await server.close();
        idb?.close();
      },
    };
  }

  /** The running server, for checks made beside the network. */
  async server(): Promise<PlaygroundServer> {
    return (await this.#server).server;
  }

  /** Opens a link as `identity`; refused while the server is down. */
  async connect(identity: string): Promise<Transport> {
    if (!this.running) throw new Error('server worker is not running');
    const generation = this.generation;
    const { server } = await this.#server;
    if (!this.running || generation !== this.generation)
      throw new Error('server worker is not running');
    const ledger = this.#ledger;
    const record = {
      delivered: [] as (string | number)[],
      answered: [] as (string | number)[],
      killed: false,
    };
    ledger.serverLinks.push(record);
    const serverPort = new LocalPort((message) => {
      ledger.activity++;
      const m = message as {
        id?: string | number;
        method?: string;
        result?: { resultType?: string; taskId?: string };
      };
      if (m.id === undefined || m.method !== undefined) return;
      record.answered.push(m.id);
      // T8: the moment a handle leaves, a tasks/get for it must already resolve.
      if (m.result?.resultType === 'task' && typeof m.result.taskId === 'string') {
        const taskId = m.result.taskId;
        const get = {
          jsonrpc: '2.0' as const,
          id: `check-${taskId}`,
          method: 'tasks/get',
          params: {
            taskId,
            _meta: requestMeta(
              { name: 'ledger', version: '0' },
              { extensions: { 'io.modelcontextprotocol/tasks': {} } },
            ),
          },
        };
        const kills = this.#kills;
        // A server killed meanwhile answers nothing useful (HTTP 499): that check says nothing either way.
        const gettable = viaHttpEntry(server, get, identity).then(
          (reply) =>
            ('result' in reply && (reply.result as { taskId?: string }).taskId === taskId) ||
            this.#kills !== kills,
          () => this.#kills !== kills,
        );
        ledger.handles.push({ taskId, gettable });
      }
    });
    const pagePort = new LocalPort(() => ledger.activity++);
    serverPort.other = pagePort;
    pagePort.other = serverPort;
    // Requests as the server receives them, before the host sees them.
    serverPort.addEventListener('message', (event) => {
      const m = event.data as {
        id?: string | number;
        method?: string;
        params?: { taskId?: string; inputResponses?: object };
      };
      if (m.id !== undefined && m.method !== undefined) record.delivered.push(m.id);
      if (m.method === 'tasks/update') {
        for (const key of Object.keys(m.params?.inputResponses ?? {})) {
          const answer = `${m.params?.taskId}/${key}`;
          if (ledger.answersDelivered.has(answer)) ledger.repeatedAnswers++;
          ledger.answersDelivered.add(answer);
        }
      }
    });
    const host = servePort(server, serverPort, identity);
    const transport = new LocalTransport(pagePort);
    this.#links.add({
      close: (reason) => {
        record.killed = true;
        host.close();
        transport.close(reason);
      },
    });
    return transport;
  }

  kill(reason = 'server worker killed'): void {
    if (!this.running) return;
    this.running = false;
    this.#kills++;
    for (const link of this.#links) link.close(reason);
    this.#links.clear();
    this.#closing.push(this.#server.then((s) => s.close()));
  }

  restart(): void {
    this.kill();
    this.generation++;
    this.running = true;
    this.#server = this.#start();
  }

  /** A fresh page starts its server, as a reloaded page starts a fresh worker; the store is the test's choice. */
  start(): void {
    if (!this.running) this.restart();
    // A fresh page hears what the store holds, as it would from the worker it starts.
    else void this.#server.then((s) => s.tellStore());
  }

  /** Only the T8 toggle matters here; the store is the test's choice. */
  configure(start: StartMessage): void {
    this.#earlyHandleMs = start.earlyHandleMs ?? 0;
  }

  /** The jobs' clock is the fake one the test drives. */
  holdJobs(): void {}

  /** What the server says beside the wire: `ready`, and the x-ray of its store. */
  onEvent(listener: (event: WorkerEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The server outlives a page here: a reload keeps it, and kills are the test's own commands. */
  release(): void {}

  /** Stops everything for good. */
  async close(): Promise<void> {
    this.kill();
    await Promise.all(this.#closing);
  }
}
