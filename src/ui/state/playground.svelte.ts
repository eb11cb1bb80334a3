/**
 * The whole page's state: one server worker, one MCP client connected to
 * it as `learner`, the server's tools, the learner's calls and the tasks
 * being followed, and the wire log of every message between them.
 */
import { RpcClient, type ConnectionInfo, type ConnectionState } from '../../client/rpc-client.ts';
import { describeError } from '../../client/rpc-error.ts';
import { TaskFollower, type TaskActor } from '../../client/task-follower.ts';
import type { FollowFacts } from '../../client/task-journal.ts';
import { getTask } from '../../client/task-lookup.ts';
import { TaskSubscription } from '../../client/task-subscription.ts';
import { listTools, type ToolInfo } from '../../client/tool-catalog.ts';
import { FaultyNetwork } from '../../net/faulty-network.ts';
import { randomSeed } from '../../net/prng.ts';
import { ServerWorker } from '../../net/server-worker.ts';
import type { ElicitResult } from '../../protocol/elicitation.ts';
import { errorMessage } from '../../protocol/error-message.ts';
import type { CreateTaskResult } from '../../protocol/task.ts';
import type { TaskStoreKind } from '../../protocol/worker-control.ts';
import { Durability } from './durability.svelte.ts';
import { FollowedTask } from './followed-task.svelte.ts';
import { NetworkControls } from './network.svelte.ts';
import { PushControls } from './push.svelte.ts';
import { ToolCalls } from './tool-calls.svelte.ts';
import { WireLog } from './wire-log.svelte.ts';

/** Who the page connects as; tasks belong to it (T20). */
export const IDENTITY = 'learner';

export class Playground {
  readonly wire = new WireLog();
  readonly calls: ToolCalls;
  readonly #worker = new ServerWorker({ onEvent: (event) => this.durability.workerEvent(event) });
  /** Where tasks are kept: the server's store, and the page's own journal and wire log. */
  readonly durability = new Durability();
  readonly #client: RpcClient;
  readonly #follower: TaskFollower;
  /** Every link to the server passes through this simulated network (fault injection). */
  readonly network: NetworkControls;
  readonly #network: FaultyNetwork;
  /** The "also subscribe" switch: push as well as poll (T18). */
  readonly push: PushControls;
  #connection = $state<ConnectionState>('connecting');
  #connectionDetail = $state<string | undefined>();
  #connectionInfo = $state.raw<ConnectionInfo>({ attempt: 0 });
  #workerGeneration = $state(0);
  #workerRunning = $state(false);
  #tools = $state.raw<readonly ToolInfo[]>([]);
  #toolsError = $state<string | undefined>();
  #selectedTool = $state<string | undefined>();
  #declareTasks = $state(true);
  #tasks = $state.raw<readonly FollowedTask[]>([]);
  /** One numbering for every client of this page, so the wire log's rows stay unique. */
  #wireSeq = 0;
  /** Clients opened besides the page's own (a second connection, another identity), by name. */
  readonly #connections = new Map<string, RpcClient>();

  constructor() {
    const network = new FaultyNetwork({ seed: randomSeed(), server: this.#worker });
    this.#network = network;
    this.network = new NetworkControls(network);
    network.onPacketUpdate((update) => this.wire.update(update));
    // The network (a rule, or the panel) may kill or start the worker.
    network.log.subscribe((event) => {
      if (event.kind === 'server.killed' || event.kind === 'server.started') this.#syncWorker();
    });
    this.#client = new RpcClient({
      clientInfo: { name: 'mcp-tasks-playground-page', version: '0.1.0' },
      connect: network.connector(() => this.#worker.connect(IDENTITY)),
      nextSeq: () => ++this.#wireSeq,
      onWire: (entry) => {
        this.wire.add(entry);
        this.durability.recordWire(entry);
      },
      onNotification: (notification) => {
        subscription.handle(notification);
        this.#follower.notify(notification);
      },
      onConnectionState: (state, detail, info) => {
        this.#connection = state;
        this.#connectionDetail = detail;
        this.#connectionInfo = info ?? { attempt: 0 };
        this.#follower.connectionChanged(state, info);
        subscription.connectionChanged(state);
      },
    });
    const subscription = new TaskSubscription(this.#client, {
      onstatus: (status) => this.push.statusChanged(status),
    });
    this.push = new PushControls(subscription);
    this.#follower = new TaskFollower(this.#client, {
      onchange: (taskIds) => subscription.setTaskIds(taskIds),
    });
    this.calls = new ToolCalls(this.#client, (task, toolName, args) =>
      this.#follow(task, toolName, args),
    );
  }

  /**
   * Shows what the page kept (wire log, followed tasks: each unfinished one
   * carries on, T12), then starts the server worker with the chosen store,
   * connects, and lists the tools.
   */
  async start(): Promise<void> {
    this.wire.restore(await this.durability.restoreWire());
    const restored = await this.durability.restoreTasks(this.#follower);
    this.#tasks = [...restored.map((actor) => new FollowedTask(actor)).reverse(), ...this.#tasks];
    this.#worker.start(this.durability.startMessage);
    this.#syncWorker();
    await this.#client.start();
    await this.loadTools();
  }

  stop(): void {
    void this.durability.flush();
    this.#follower.stopAll();
    this.#client.close();
    this.#worker.kill('page closed');
    this.#syncWorker();
  }

  get connection(): ConnectionState {
    return this.#connection;
  }

  get connectionDetail(): string | undefined {
    return this.#connectionDetail;
  }

  /** Reconnect attempts and when the next one starts, for the backoff countdown. */
  get connectionInfo(): ConnectionInfo {
    return this.#connectionInfo;
  }

  get workerRunning(): boolean {
    return this.#workerRunning;
  }

  /** 1 for the first worker, +1 per restart: a restarted server has empty memory. */
  get workerGeneration(): number {
    return this.#workerGeneration;
  }

  get tools(): readonly ToolInfo[] {
    return this.#tools;
  }

  get toolsError(): string | undefined {
    return this.#toolsError;
  }

  get selectedTool(): ToolInfo | undefined {
    return this.#tools.find((tool) => tool.name === this.#selectedTool) ?? this.#tools[0];
  }

  select(toolName: string): void {
    this.#selectedTool = toolName;
  }

  /** Whether each tools/call declares io.modelcontextprotocol/tasks (T1). On by default. */
  get declareTasks(): boolean {
    return this.#declareTasks;
  }

  set declareTasks(value: boolean) {
    this.#declareTasks = value;
  }

  /** Followed tasks, newest first. */
  get tasks(): readonly FollowedTask[] {
    return this.#tasks;
  }

  async loadTools(): Promise<void> {
    this.#toolsError = undefined;
    try {
      this.#tools = await listTools(this.#client, { tasks: this.#declareTasks });
    } catch (error) {
      this.#toolsError = errorMessage(error);
    }
  }

  /** Calls a tool with the current declaration switch. */
  call(toolName: string, args: Record<string, unknown>): void {
    this.calls.call(toolName, args, this.#declareTasks);
  }

  /** Removes a task card; a task still running is forgotten first (T17 allows it). */
  dismissTask(task: FollowedTask): void {
    if (!task.done) task.forget();
    this.#tasks = this.#tasks.filter((t) => t !== task);
    void this.durability.forget([task.taskId]);
  }

  /** Removes every finished card, from the page and from storage. */
  clearFinished(): void {
    const finished = this.#tasks.filter((t) => t.done);
    this.#tasks = this.#tasks.filter((t) => !t.done);
    void this.durability.forget(finished.map((t) => t.taskId));
  }

  /**
   * Where the server keeps its tasks. A worker keeps the store it started
   * with, so switching restarts it: an in-memory server's tasks are lost.
   */
  setServerStore(kind: TaskStoreKind): void {
    if (kind === this.durability.serverStore) return;
    this.durability.choose(kind);
    this.#worker.configure(this.durability.startMessage);
    this.restartWorker();
  }

  /**
   * Follows a task by its id alone, as a second tab can (M5): one tasks/get,
   * then the usual polling. Resolves with an error message, or undefined.
   */
  async followById(raw: string): Promise<string | undefined> {
    const taskId = raw.trim();
    if (!taskId) return 'Enter a taskId.';
    if (this.#tasks.some((t) => t.taskId === taskId && !t.done))
      return `Already following ${taskId}.`;
    try {
      const task = await getTask(this.#client, taskId);
      const facts = await this.durability.knownFacts(taskId, IDENTITY);
      this.#show(this.#follower.follow(task, facts.toolName), facts);
      return undefined;
    } catch (error) {
      return `tasks/get failed: ${describeError(error)}. Unknown, expired, another identity's, or held by another tab's in-memory server: all look alike (T13, T20).`;
    }
  }

  /** Stops following everything, kills the server, and empties both stores and the wire log. */
  async clearEverything(): Promise<void> {
    this.#follower.stopAll();
    this.#tasks = [];
    this.network.killServer();
    this.#syncWorker();
    try {
      await this.durability.clearStorage();
    } finally {
      this.wire.clear();
      this.network.restartServer();
      this.#syncWorker();
    }
  }

  /** Breaks the page's link; the client reconnects and re-issues what was in flight (C8, M3). */
  dropConnection(): void {
    this.network.dropConnection();
  }

  /** Kills the server worker: every link breaks and the in-memory tasks are lost. */
  killWorker(): void {
    this.network.killServer();
    this.#syncWorker();
  }

  restartWorker(): void {
    this.network.restartServer();
    this.#syncWorker();
  }

  /**
   * Holds the clock the server's jobs sleep on, or lets it run: a task stays
   * where it is while held, though polls and answers go on (src/server/job-clock.ts).
   */
  holdJobs(held: boolean): void {
    this.#worker.holdJobs(held);
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
      options.connection === undefined ? this.#client : this.#connections.get(options.connection);
    if (!client) return Promise.reject(new Error(`no connection named ${options.connection}`));
    return client.request(method, params, { tasks: options.declare });
  }

  /**
   * Opens another client to the same server over a fresh MessagePort, as
   * `identity`; its messages join the wire log marked `name`. Not kept
   * across a reload. Resolves once its link is open.
   */
  async openConnection(name: string, identity: string): Promise<void> {
    this.#connections.get(name)?.close();
    const client = new RpcClient({
      clientInfo: { name: `mcp-tasks-playground-page (${name})`, version: '0.1.0' },
      connect: this.#network.connector(() => this.#worker.connect(identity)),
      connection: name,
      nextSeq: () => ++this.#wireSeq,
      onWire: (entry) => this.wire.add(entry),
    });
    this.#connections.set(name, client);
    await client.start();
  }

  /** Closes every connection {@link openConnection} opened. */
  closeConnections(): void {
    for (const client of this.#connections.values()) client.close();
    this.#connections.clear();
  }

  /** Answers one input request of a followed task (T15), as its card's form would. */
  answer(taskId: string, key: string, response: ElicitResult): void {
    this.#tasks.find((t) => t.taskId === taskId && !t.done)?.answer(key, response);
  }

  /** Cancels a followed task (T17), as its card's button would. */
  cancel(taskId: string): void {
    this.#tasks.find((t) => t.taskId === taskId && !t.done)?.cancel();
  }

  /**
   * A clean page for a scenario: no task cards or call results, no armed
   * faults, a clean link, push off, the wire log emptied (kept rows stay in
   * storage), the server running with `store`. Resolves once connected.
   */
  async prepareScenario(setup: { store: TaskStoreKind; declareTasks: boolean }): Promise<void> {
    for (const task of this.#tasks) this.dismissTask(task);
    this.calls.clear();
    this.closeConnections();
    this.network.resetAll();
    this.push.enabled = false;
    this.holdJobs(false);
    this.#declareTasks = setup.declareTasks;
    if (setup.store !== this.durability.serverStore) this.setServerStore(setup.store);
    else if (!this.#worker.running) this.restartWorker();
    for (let waited = 0; this.#connection !== 'open'; waited += 50) {
      if (waited > 15_000)
        throw new Error(
          `the page could not connect to the server (${this.#connectionDetail ?? this.#connection})`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Answers to the dismissed tasks' last polls would land in the emptied log as noise: let them arrive first.
    for (let waited = 0; this.#client.inFlight > 0 && waited < 2000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    this.wire.clear();
  }

  #follow(task: CreateTaskResult, toolName: string, args: Record<string, unknown>): void {
    this.#show(this.#follower.follow(task, toolName), {
      toolName,
      arguments: args,
      identity: IDENTITY,
      followedAt: Date.now(),
    });
  }

  /** Puts a new card first, and keeps its facts from now on (T12). */
  #show(actor: TaskActor, facts: FollowFacts): void {
    this.durability.track(actor, facts);
    this.#tasks = [new FollowedTask(actor), ...this.#tasks];
  }

  #syncWorker(): void {
    this.#workerRunning = this.#worker.running;
    this.#workerGeneration = this.#worker.generation;
  }
}
