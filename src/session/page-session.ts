/**
 * The page's session: everything the page does, without a framework. It
 * owns the link to the server (a {@link ServerEndpoint}: the Web Worker,
 * or the learner's own server over HTTP), the simulated network every link passes through, the page's
 * RPC client and any extra named connections, the task follower and the
 * journal that keeps followed tasks across a reload, and push
 * subscriptions. It tells what changed through typed events (`on`).
 *
 * The Svelte state classes show it; scenarios, the bench page and the property tests drive it.
 */
import { RpcClient, type RpcClientOptions } from '../client/rpc-client.ts';
import { errorMessage } from '../protocol/error-message.ts';
import { TaskFollower, type TaskActor } from '../client/task-follower.ts';
import { TaskSubscription, type PushStatus } from '../client/task-subscription.ts';
import { callTool, type ToolCallOutcome, type ToolCallRequest } from '../client/tool-call.ts';
import { listTools } from '../client/tool-catalog.ts';
import { FaultyNetwork } from '../net/faulty-network.ts';
import { randomSeed } from '../net/prng.ts';
import { realScheduler, type Scheduler } from '../net/scheduler.ts';
import type { ElicitResult } from '../protocol/elicitation.ts';
import type { TaskStoreKind } from '../protocol/worker-control.ts';
import { Emitter } from './emitter.ts';
import { FollowedTasks, isDone, taskIdOf } from './followed-tasks.ts';
import { NamedConnections } from './named-connections.ts';
import type { ServerEndpoint } from './server-endpoint.ts';
import { ServerXray } from './server-xray.ts';
import { ServedBy } from './served-by.ts';
import { PageStorage, type PageStorageOptions } from './page-storage.ts';
import type {
  ConnectionStatus,
  ServerStatus,
  SessionEvents,
  SessionListener,
  StorageStatus,
  ToolsStatus,
} from './session-events.ts';
import { TaskNews } from './task-news.ts';
import { untilEvent } from './until-event.ts';

/** Who the page connects as; tasks belong to it (T20). */
export const IDENTITY = 'learner';

export interface PageSessionOptions extends PageStorageOptions {
  /** Where the server is. */
  endpoint: ServerEndpoint;
  /** The network's seed (random by default: the panel shows it, so a run can be repeated). */
  seed?: number;
  /** Clock and timers of the network, the clients and the task actors (the page's world clock); real by default. */
  scheduler?: Scheduler;
  /** Names the page's client in every request's `_meta`. */
  clientName?: string;
}

export class PageSession {
  readonly #events = new Emitter<SessionEvents>();
  readonly #endpoint: ServerEndpoint;
  readonly #scheduler: Scheduler;
  /** Every link to the server passes through this simulated network (fault injection). */
  readonly network: FaultyNetwork;
  /** The page's own client, connected as {@link IDENTITY}. */
  readonly client: RpcClient;
  readonly #follower: TaskFollower;
  readonly #storage: PageStorage;
  readonly #subscription: TaskSubscription;
  readonly #tasks: FollowedTasks;
  readonly #connections: NamedConnections;
  /** What the page heard about each task, and the faults that hit it (wire log, sequence, cards). */
  readonly news: TaskNews;
  /** What the server's store holds now, told beside the MCP wire (`xray` events say when it changed). */
  readonly xray: ServerXray;
  #connection: ConnectionStatus = { state: 'connecting', detail: undefined, info: { attempt: 0 } };
  #tools: ToolsStatus = { tools: [], error: undefined };
  #declareTasks = true;
  /** One numbering for every client of this page, so the wire log's rows stay unique. */
  #wireSeq = 0;

  constructor(options: PageSessionOptions) {
    this.#endpoint = options.endpoint;
    this.#scheduler = options.scheduler ?? realScheduler;
    this.#storage = new PageStorage(options, () => this.#events.emit('storage', this.storage));
    this.xray = new ServerXray(options.endpoint, this.#events);
    this.network = new FaultyNetwork({
      seed: options.seed ?? randomSeed(),
      server: options.endpoint,
      scheduler: this.#scheduler,
    });
    const served = new ServedBy(options.endpoint, this.network, (u) =>
      this.#events.emit('packet', u),
    );
    this.news = new TaskNews({
      generation: () => this.#endpoint.generation,
      store: () => this.storage.serverStore.running ?? this.storage.serverStore.chosen,
      identity: IDENTITY,
      identityOf: (name) => this.#connections.identityOf(name),
      lastSeq: () => this.#wireSeq,
      liveTaskIds: () => this.#tasks.actors.filter((a) => !isDone(a)).map(taskIdOf),
    });
    this.news.listen(this.#events, this.network.log);
    this.network.log.subscribe((event) => {
      if (event.kind === 'server.killed' || event.kind === 'server.started') this.#serverChanged();
    });
    options.endpoint.onEvent((e) => this.#storage.serverStore.heard(e) && this.#storageChanged());
    this.client = new RpcClient({
      ...this.#clientOptions(options.clientName ?? 'mcp-tasks-playground-page', IDENTITY),
      onWire: served.tagging((entry) => {
        this.#events.emit('wire', entry);
        this.#storage.journal.recordWire(entry);
      }),
      onNotification: (notification) => {
        this.#subscription.handle(notification);
        this.#follower.notify(notification);
      },
      onConnectionState: (state, detail, info) => {
        this.#connection = { state, detail, info: info ?? { attempt: 0 } };
        this.#follower.connectionChanged(state, info);
        this.#subscription.connectionChanged(state);
        this.#events.emit('connection', this.#connection);
      },
    });
    this.#subscription = new TaskSubscription(this.client, {
      onstatus: (status) => this.#events.emit('push', status),
    });
    this.#follower = new TaskFollower(this.client, {
      onchange: (taskIds) => this.#subscription.setTaskIds(taskIds),
      clock: this.#scheduler,
      now: () => this.#scheduler.now(),
    });
    this.#tasks = new FollowedTasks(
      this.#follower,
      this.#storage.journal,
      {
        tasks: (actors) => this.#events.emit('tasks', actors),
        followed: (event) => this.#events.emit('followed', event),
      },
      () => this.#scheduler.now(),
    );
    this.#connections = new NamedConnections((name, identity) => ({
      ...this.#clientOptions(`mcp-tasks-playground-page (${name})`, identity),
      connection: name,
      onWire: served.tagging((entry) => this.#events.emit('wire', entry)),
    }));
  }

  /** Listens to one kind of event; returns the unsubscribe. */
  on<K extends keyof SessionEvents>(type: K, listener: SessionListener<K>): () => void {
    return this.#events.on(type, listener);
  }

  /**
   * Starts the server with the chosen store and connects, while restoring
   * what the page kept (the wire log, then every followed task: each
   * unfinished one carries on, T12); then lists the tools.
   *
   * The server starts first: a worker loads its script and opens its own
   * store on its own thread, which took longer than the page's reads, so
   * waiting for them before starting it made every resumed task's first
   * tasks/get wait for both in turn. Connecting sends nothing, and no task
   * polls before it is restored, so the kept wire log still comes before
   * anything this page says. Both reads are asked for at once.
   */
  async start(): Promise<void> {
    this.#events.emit('restore-started', undefined);
    this.#endpoint.start(this.#storage.serverStore.startMessage);
    this.#serverChanged();
    const connected = this.client.start();
    const wire = this.#storage.journal.loadWire();
    const tasks = this.#storage.journal.load();
    const kept = await wire;
    // Negative sequence numbers: this page's clients count from 1, and rows are keyed by seq.
    this.#events.emit(
      'wire-restored',
      kept.map((entry, i) => ({ ...entry, seq: i - kept.length })),
    );
    const count = await this.#tasks.restore(tasks);
    this.#events.emit('tasks-resumed', { count });
    await connected;
    await this.loadTools();
  }

  /** The page goes away: pending writes are flushed, every client closes, a worker ends. */
  close(): Promise<void> {
    const flushed = this.#storage.journal.close();
    this.#tasks.stopAll({ empty: false });
    this.client.close();
    this.#connections.closeAll();
    this.#endpoint.release('page closed');
    this.#serverChanged();
    return flushed;
  }

  get connection(): ConnectionStatus {
    return this.#connection;
  }

  /** Resolves once the page's client is connected; rejects after `timeoutMs` saying why not. */
  whenConnected(timeoutMs = 15_000): Promise<void> {
    return untilEvent(this.#events, 'connection', () => this.#connection.state === 'open', {
      scheduler: this.#scheduler,
      timeoutMs,
      timeoutError: () =>
        new Error(
          `the page could not connect to the server (${this.#connection.detail ?? this.#connection.state})`,
        ),
    });
  }

  /** Resolves once no request of the page's client waits for an answer, or after `timeoutMs` anyway. */
  whenIdle(timeoutMs: number): Promise<void> {
    return untilEvent(this.#events, 'wire', () => this.client.inFlight === 0, {
      scheduler: this.#scheduler,
      timeoutMs,
    });
  }

  get server(): ServerStatus {
    return { running: this.#endpoint.running, generation: this.#endpoint.generation };
  }

  get storage(): StorageStatus {
    return this.#storage.status;
  }

  get tools(): ToolsStatus {
    return this.#tools;
  }

  get declareTasks(): boolean {
    return this.#declareTasks;
  }

  set declareTasks(value: boolean) {
    this.#declareTasks = value;
    this.#events.emit('declareTasks', value);
  }

  get push(): PushStatus {
    return this.#subscription.status;
  }

  /** The "also subscribe" switch: push as well as poll (T18). */
  setPush(on: boolean): void {
    this.#subscription.setEnabled(on);
  }

  /** Ends the push stream as a broken one would end; polling carries on. */
  dropPush(): void {
    this.#subscription.drop('stream dropped by the learner');
  }

  /** Followed tasks, newest first. */
  get tasks(): readonly TaskActor[] {
    return this.#tasks.actors;
  }

  async loadTools(): Promise<void> {
    this.#setTools({ tools: this.#tools.tools, error: undefined });
    try {
      this.#setTools({
        tools: await listTools(this.client, { tasks: this.#declareTasks }),
        error: undefined,
      });
    } catch (error) {
      this.#setTools({ tools: this.#tools.tools, error: errorMessage(error) });
    }
  }

  /**
   * One tools/call round (T1: `tasks` declares the extension, or not); a
   * task handle is followed and kept at once (T7, T12). Rejects as
   * {@link callTool} does.
   */
  async callTool(request: ToolCallRequest): Promise<ToolCallOutcome> {
    const outcome = await callTool(this.client, request);
    if (outcome.kind === 'task')
      this.#tasks.follow(outcome.task, request.name, request.arguments, IDENTITY);
    return outcome;
  }

  /** Follows a task by its id alone, as a second tab can (M5); resolves with an error message, or undefined. */
  followById(raw: string): Promise<string | undefined> {
    return this.#tasks.followById(raw, this.client, IDENTITY, (taskId) =>
      this.news.explainUnknown(taskId, this.#scheduler.now()),
    );
  }

  /** Answers one input request of a followed task (T15), as its card's form would. */
  answer(taskId: string, key: string, response: ElicitResult): void {
    this.#tasks.answer(taskId, key, response);
  }

  /** Cancels a followed task (T17), as its card's button would. */
  cancel(taskId: string): void {
    this.#tasks.cancel(taskId);
  }

  /** Removes a task; a task still running is forgotten first (T17 allows it). */
  dismiss(taskId: string): void {
    this.#tasks.dismiss(taskId);
    this.news.forget(taskId);
  }

  /** Removes every finished task, from the page and from storage. */
  clearFinished(): void {
    this.#tasks.clearFinished();
  }

  /**
   * Where the server keeps its tasks. A server keeps the store it started
   * with, so switching restarts it: an in-memory server's tasks are lost.
   */
  setServerStore(kind: TaskStoreKind): void {
    if (kind === this.#storage.serverStore.status.chosen) return;
    this.#storage.serverStore.choose(kind);
    this.#storageChanged();
    this.#endpoint.configure(this.#storage.serverStore.startMessage);
    this.network.restartServer();
  }

  /** Breaks the page's link; the client reconnects and re-issues what was in flight (C8, M3). */
  dropConnection(): void {
    this.network.dropConnection('connection dropped by the learner');
  }

  /** Kills the server: every link breaks and an in-memory server's tasks are lost. */
  killServer(): void {
    this.network.killServer();
  }

  restartServer(): void {
    this.network.restartServer();
  }

  /**
   * Holds the clock the server's jobs sleep on, or lets it run: a task stays
   * where it is while held, though polls and answers go on.
   */
  holdJobs(held: boolean): void {
    this.#endpoint.holdJobs(held);
  }

  /**
   * A raw request over the page's client, or over a connection opened with
   * {@link openConnection}: for probes such as tasks/result (M1) or another
   * identity's tasks/get (T20). It shows in the wire log like any other.
   */
  request(
    method: string,
    params: Record<string, unknown>,
    options: { declare: boolean; connection?: string },
  ): Promise<Record<string, unknown>> {
    const client =
      options.connection === undefined ? this.client : this.#connections.get(options.connection);
    if (!client) return Promise.reject(new Error(`no connection named ${options.connection}`));
    return client.request(method, params, { tasks: options.declare });
  }

  /** Opens another client to the same server as `identity`, named `name` in the wire log. */
  openConnection(name: string, identity: string): Promise<void> {
    return this.#connections.open(name, identity);
  }

  closeConnections(): void {
    this.#connections.closeAll();
  }

  /** Stops following everything, kills the server, and empties both stores and the wire log. */
  async clearEverything(): Promise<void> {
    this.#tasks.stopAll({ empty: true });
    this.network.killServer();
    try {
      await this.#storage.clear();
    } finally {
      this.clearWireLog();
      this.network.restartServer();
    }
  }

  /** The wire log starts over: views empty it (the kept rows stay in storage). */
  clearWireLog(): void {
    this.#events.emit('wire-cleared', undefined);
  }

  /** Tells views to drop what they hold beyond the session (call results): a scenario starts clean. */
  resetViews(): void {
    this.#events.emit('reset', undefined);
  }

  #clientOptions(name: string, identity: string): RpcClientOptions {
    return {
      clientInfo: { name, version: '0.1.0' },
      connect: this.network.connector(() => this.#endpoint.connect(identity)),
      marks: this.network,
      scheduler: this.#scheduler,
      nextSeq: () => ++this.#wireSeq,
    };
  }

  #setTools(tools: ToolsStatus): void {
    this.#tools = tools;
    this.#events.emit('tools', tools);
  }

  #serverChanged(): void {
    this.#events.emit('server', this.server);
  }

  #storageChanged(): void {
    this.#events.emit('storage', this.storage);
  }
}
