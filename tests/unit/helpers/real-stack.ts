/**
 * The real server and the real page client, end to end, on one fake clock
 * (vitest's timers): a `PlaygroundServer` (memory or IndexedDB store) served
 * by the port host, the fault-injecting network, and a page made of
 * `RpcClient`, `TaskFollower` and `TaskJournal` over a page store. A server
 * "kill" closes the host and starts a fresh one on the same store; a page
 * "reload" closes the client and resumes every stored task in a fresh one.
 *
 * Everything that crosses the boundary and every store write is recorded
 * in a `Ledger`, for the invariants the property tests check.
 */
import { vi } from 'vitest';
import { RpcClient, type WireEntry } from '../../../src/client/rpc-client.ts';
import { TaskFollower, type TaskActor } from '../../../src/client/task-follower.ts';
import {
  finishedActor,
  followFactsOf,
  resumeInputOf,
  TaskJournal,
} from '../../../src/client/task-journal.ts';
import { callTool, type ToolCallOutcome } from '../../../src/client/tool-call.ts';
import { FaultyNetwork, type ServerControl } from '../../../src/net/faulty-network.ts';
import type { LinkConditions } from '../../../src/net/link-conditions.ts';
import type { Transport } from '../../../src/net/transport.ts';
import { requestMeta } from '../../../src/protocol/envelope.ts';
import { isTerminal } from '../../../src/protocol/task.ts';
import { IdbTaskStore } from '../../../src/server/idb/idb-task-store.ts';
import { MemoryTaskStore } from '../../../src/server/memory-task-store.ts';
import {
  createPlaygroundServer,
  type PlaygroundServer,
  type PlaygroundServerOptions,
} from '../../../src/server/playground-server.ts';
import { servePort, viaHttpEntry, type PortLike } from '../../../src/server/port-host.ts';
import type { TaskRecord, TaskStore, TaskUpdate } from '../../../src/server/task-store.ts';
import { MemoryPageStore } from '../../../src/store/memory-page-store.ts';

export const IDENTITY = 'learner';

/** Timers and Date are fake; setImmediate stays real, because fake-indexeddb and the settling loop run on it. */
export const FAKE_TIMERS: Parameters<typeof vi.useFakeTimers>[0] = {
  toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
};

const realImmediate = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** What the invariants are checked against: everything seen at the boundary and in the stores. */
export class Ledger {
  readonly violations: string[] = [];
  /** Everything that happened, for the report when a check fails. */
  activity = 0;
  /** Per task: the first terminal record, so any later change shows (T9). */
  readonly #terminal = new Map<string, string>();
  /** Per task: input keys whose answer the store accepted, and those a job took (T15). */
  readonly #accepted = new Map<string, Set<string>>();
  readonly #taken = new Map<string, Set<string>>();
  /** CreateTaskResults the server sent, each checked with a tasks/get made the moment it left (T8). */
  readonly handles: { taskId: string; gettable: Promise<boolean> }[] = [];
  /** Per server link: request ids delivered to the server, and the responses it sent back. */
  readonly serverLinks: {
    delivered: (string | number)[];
    answered: (string | number)[];
    killed: boolean;
  }[] = [];
  /** Answers (taskId/key) that reached the server, and how many arrived again after the first (T15's repeats). */
  readonly answersDelivered = new Set<string>();
  repeatedAnswers = 0;
  /** taskIds a page followed. */
  readonly followed = new Set<string>();
  /** Input keys (taskId + key) the simulated user answered, and keys shown again after that. */
  readonly answered = new Set<string>();

  /** Requests delivered to a live server and not answered yet. */
  get inFlight(): number {
    let open = 0;
    for (const link of this.serverLinks)
      if (!link.killed) open += link.delivered.length - link.answered.length;
    return open;
  }

  violation(message: string): void {
    this.violations.push(message);
  }

  /** Sees one atomic store change. */
  storeChange(before: TaskRecord, after: TaskRecord): void {
    this.activity++;
    const id = before.taskId;
    const end = this.#terminal.get(id);
    const outcome = isTerminal(after.status)
      ? JSON.stringify({ status: after.status, result: after.result, error: after.error })
      : undefined;
    if (end !== undefined && outcome !== end)
      this.violation(`T9: task ${id} left its terminal state ${end} for ${after.status}`);
    if (end === undefined && outcome !== undefined) this.#terminal.set(id, outcome);
    this.#once(this.#accepted, id, before.inputResponses, after.inputResponses, 'accepted');
    this.#once(
      this.#taken,
      id,
      before.takenResponses ?? {},
      after.takenResponses ?? {},
      'taken by the job',
    );
    if (new Set(after.issuedInputKeys).size !== after.issuedInputKeys.length)
      this.violation(
        `T14: task ${id} issued an input key twice: ${after.issuedInputKeys.join(', ')}`,
      );
  }

  storeCreate(record: TaskRecord): void {
    this.activity++;
    if (isTerminal(record.status))
      this.#terminal.set(
        record.taskId,
        JSON.stringify({ status: record.status, result: record.result, error: record.error }),
      );
  }

  #once(
    seen: Map<string, Set<string>>,
    taskId: string,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
    what: string,
  ): void {
    const keys = seen.get(taskId) ?? new Set<string>();
    seen.set(taskId, keys);
    for (const key of Object.keys(after)) {
      if (Object.hasOwn(before, key)) continue;
      if (keys.has(key))
        this.violation(`T15: the answer to ${key} of task ${taskId} was ${what} twice`);
      keys.add(key);
    }
  }
}

/** A store that reports every change it applies to the ledger. */
class ObservedStore implements TaskStore {
  constructor(
    readonly inner: TaskStore,
    readonly ledger: Ledger,
  ) {}
  async create(record: TaskRecord): Promise<void> {
    await this.inner.create(record);
    this.ledger.storeCreate(record);
  }
  get(taskId: string) {
    return this.inner.get(taskId);
  }
  update(taskId: string, update: TaskUpdate) {
    return this.inner.update(taskId, (record) => {
      const next = update(record);
      if (next !== record) this.ledger.storeChange(structuredClone(record), structuredClone(next));
      return next;
    });
  }
  updateMany(taskIds: readonly string[], update: TaskUpdate) {
    return this.inner.updateMany(taskIds, (record) => {
      const next = update(record);
      if (next !== record) this.ledger.storeChange(structuredClone(record), structuredClone(next));
      return next;
    });
  }
  delete(taskId: string) {
    this.ledger.activity++;
    return this.inner.delete(taskId);
  }
  all() {
    return this.inner.all();
  }
  unfinished() {
    return this.inner.unfinished();
  }
  subscribe(listener: (record: TaskRecord) => void) {
    return this.inner.subscribe(listener);
  }
}

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
  send(message: unknown): void {
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

let databases = 0;

/**
 * The server "worker": a playground server on a store that outlives it. Kill
 * closes the host (its jobs stop writing, their leases run out); restart
 * starts a fresh server on the same store, which adopts the orphaned jobs.
 */
export class ServerNode implements ServerControl {
  running = true;
  generation = 1;
  readonly #ledger: Ledger;
  readonly #kind: StoreKind;
  readonly #options: PlaygroundServerOptions;
  readonly #memory: TaskStore;
  readonly #dbName = `property-${process.pid}-${++databases}`;
  #server: Promise<{ server: PlaygroundServer; close(): Promise<void> }>;
  readonly #links = new Set<{ close(reason: string): void }>();
  readonly #closing: Promise<void>[] = [];
  #kills = 0;

  constructor(kind: StoreKind, ledger: Ledger, options: PlaygroundServerOptions) {
    this.#kind = kind;
    this.#ledger = ledger;
    this.#options = options;
    // One instance across restarts: a store that outlives the worker, as IndexedDB does.
    this.#memory = new MemoryTaskStore();
    this.#server = this.#start();
  }

  async #start(): Promise<{ server: PlaygroundServer; close(): Promise<void> }> {
    const idb = this.#kind === 'idb' ? await IdbTaskStore.open(this.#dbName) : undefined;
    const server = createPlaygroundServer({
      ...this.#options,
      store: new ObservedStore(idb ?? this.#memory, this.#ledger),
    });
    return {
      server,
      close: async () => {
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

  /** Stops everything for good. */
  async close(): Promise<void> {
    this.kill();
    await Promise.all(this.#closing);
  }
}

/** One incarnation of the page: a client, a follower and a journal over the page's store. */
export class Page {
  readonly client: RpcClient;
  readonly follower: TaskFollower;
  readonly journal: TaskJournal;
  readonly actors: TaskActor[] = [];
  readonly wire: WireEntry[] = [];
  /** Request ids (the last of each re-issue chain) pending when this page closed. */
  closedAt: number | undefined;
  readonly #ledger: Ledger;

  constructor(
    network: FaultyNetwork,
    node: ServerNode,
    pageStore: MemoryPageStore,
    ledger: Ledger,
  ) {
    this.#ledger = ledger;
    this.journal = new TaskJournal(pageStore, { wireBatchMs: 1000 });
    let follower: TaskFollower | undefined;
    this.client = new RpcClient({
      clientInfo: { name: 'property-page', version: '1.0.0' },
      connect: network.connector(() => node.connect(IDENTITY)),
      onWire: (entry) => {
        this.wire.push(entry);
        ledger.activity++;
      },
      onConnectionState: (state, _detail, info) => follower?.connectionChanged(state, info),
    });
    follower = new TaskFollower(this.client, { requestTimeoutMs: 5000 });
    this.follower = follower;
  }

  async start(): Promise<void> {
    await this.client.start();
  }

  /** Carries on every stored task, as the page does on load (T12). */
  async restore(): Promise<void> {
    for (const stored of await this.journal.load()) {
      const facts = followFactsOf(stored);
      const finished = finishedActor(stored);
      if (finished) {
        this.journal.track(finished, facts);
        continue;
      }
      const input = resumeInputOf(stored);
      const actor = this.follower.follow(input.task, input.toolName, input.resume);
      this.journal.track(actor, facts);
      this.#watch(actor);
    }
  }

  /** A tools/call as the page makes it; a task handle is followed and kept (T7, T12). */
  async call(name: string, args: Record<string, unknown>, declare: boolean): Promise<void> {
    let answer: ToolCallOutcome;
    try {
      answer = await callTool(this.client, { name, arguments: args, tasks: declare });
    } catch (error) {
      // A JSON-RPC error (-32021, T3) or a closed page is an answer; a malformed one is a server bug.
      if ((error as { kind?: string }).kind === 'invalid-response')
        this.#ledger.violation(`${name}: ${(error as { message: string }).message}`);
      return;
    }
    if (answer.kind !== 'task') return;
    const actor = this.follower.follow(answer.task, name);
    this.#ledger.followed.add(answer.task.taskId);
    this.journal.track(actor, {
      toolName: name,
      arguments: args,
      identity: IDENTITY,
      followedAt: Date.now(),
    });
    this.#watch(actor);
  }

  /** The simulated user answers every question on screen, once. */
  answerAll(): void {
    for (const actor of this.actors) {
      const { taskId, pendingInputs } = actor.getSnapshot().context;
      const keys = Object.keys(pendingInputs);
      if (keys.length === 0 || actor.getSnapshot().status !== 'active') continue;
      for (const key of keys) this.#ledger.answered.add(`${taskId}/${key}`);
      actor.send({
        type: 'task.answer',
        responses: Object.fromEntries(
          keys.map((key) => [
            key,
            {
              action: 'accept',
              content: { confirm: true, name: 'Ada', color: 'teal', approve: true },
            },
          ]),
        ),
      });
    }
  }

  cancel(index: number): void {
    const live = this.actors.filter((a) => a.getSnapshot().status === 'active');
    live[index % Math.max(1, live.length)]?.send({ type: 'task.cancel' });
  }

  /** The page goes away: actors stop (the journal keeps their facts), the client closes. */
  close(): void {
    this.closedAt = Date.now();
    this.follower.stopAll();
    this.client.close();
  }

  #watch(actor: TaskActor): void {
    this.actors.push(actor);
    actor.subscribe((snapshot) => {
      // T14: a key the user answered is never put in front of them again, on any page.
      for (const key of Object.keys(snapshot.context.pendingInputs)) {
        if (this.#ledger.answered.has(`${snapshot.context.taskId}/${key}`))
          this.#ledger.violation(
            `T14: ${snapshot.context.taskId}/${key} was asked again after it was answered`,
          );
      }
    });
  }
}

/** The whole stack, and the fake clock that drives it. */
export class RealStack {
  readonly ledger = new Ledger();
  readonly pageStore = new MemoryPageStore();
  readonly node: ServerNode;
  readonly network: FaultyNetwork;
  readonly pages: Page[] = [];
  /** Every tools/call the test made, and whether it settled (answered, or abandoned by a reload). */
  readonly calls: { settled: boolean; page: Page }[] = [];

  constructor(kind: StoreKind, seed: number, options: PlaygroundServerOptions = {}) {
    this.node = new ServerNode(kind, this.ledger, options);
    this.network = new FaultyNetwork({ seed, server: this.node });
  }

  get page(): Page {
    const page = this.pages.at(-1);
    if (!page) throw new Error('no page yet');
    return page;
  }

  async open(): Promise<void> {
    const page = new Page(this.network, this.node, this.pageStore, this.ledger);
    this.pages.push(page);
    const started = page.start();
    await this.settle();
    await started;
    await page.restore();
    await this.settle();
  }

  /** A reload: this page closes, a fresh one carries on from what was kept. */
  async reload(): Promise<void> {
    this.page.close();
    await this.open();
  }

  call(name: string, args: Record<string, unknown>, declare: boolean): void {
    const page = this.page;
    const entry = { settled: false, page };
    this.calls.push(entry);
    void page.call(name, args, declare).then(
      () => (entry.settled = true),
      () => (entry.settled = true),
    );
  }

  setConditions(conditions: LinkConditions): void {
    this.network.setConditions('out', conditions.out);
    this.network.setConditions('in', conditions.in);
  }

  /**
   * Lets real asynchronous work finish (hashing, IndexedDB, message hops)
   * until nothing has happened for a while, so each fake-clock step sees a
   * settled system and a seed replays the same run.
   */
  async settle(): Promise<void> {
    let last = this.ledger.activity;
    // Requests must finish too: hashing the caller's identity runs on libuv's thread pool, which no
    // fixed number of turns is sure to outwait. Every request here answers without waiting on the clock.
    for (let quiet = 0, i = 0; (quiet < 12 || this.ledger.inFlight > 0) && i < 20_000; i++) {
      await realImmediate();
      if (this.ledger.activity === last) quiet++;
      else {
        quiet = 0;
        last = this.ledger.activity;
      }
    }
  }

  /**
   * Advances the fake clock by `ms`, one timer at a time, settling after
   * each: a request that reached the server is answered before the clock
   * moves on, so the same seed replays the same run.
   */
  async advance(ms: number): Promise<void> {
    const until = Date.now() + ms;
    // A timer at the end, so stepping from timer to timer never overshoots it.
    const end = setTimeout(() => {}, ms);
    try {
      while (Date.now() < until) {
        await vi.advanceTimersToNextTimerAsync();
        await this.settle();
      }
    } finally {
      clearTimeout(end);
    }
  }

  async close(): Promise<void> {
    for (const page of this.pages) if (page.closedAt === undefined) page.close();
    await this.node.close();
  }
}
