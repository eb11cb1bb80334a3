/**
 * The page as Svelte shows it: a thin adapter over the page session
 * (src/session), which owns the server, the network, the client, the
 * followed tasks and what is kept across a reload. This class reads the
 * session through its events and forwards clicks; the wire log, the call
 * results and the tool picked in the list are the only state it holds.
 */
import type { ConnectionInfo, ConnectionState } from '../../client/rpc-client.ts';
import type { TaskActor } from '../../client/task-follower.ts';
import type { ToolInfo } from '../../client/tool-catalog.ts';
import type { TaskStoreKind } from '../../protocol/worker-control.ts';
import type { ClusterEndpoint } from '../../session/cluster/cluster-endpoint.ts';
import { IDENTITY, type PageSession } from '../../session/page-session.ts';
import { ClusterControls } from './cluster.svelte.ts';
import { Durability } from './durability.svelte.ts';
import { FollowedTask } from './followed-task.svelte.ts';
import { NetworkControls } from './network.svelte.ts';
import { PushControls } from './push.svelte.ts';
import { watch } from './session-subscriber.ts';
import { TaskTally } from './task-tally.svelte.ts';
import { ToolCalls, type CallOutcome } from './tool-calls.svelte.ts';
import { WireLog } from './wire-log.svelte.ts';
import { XrayHistory } from './xray-history.ts';

export { IDENTITY };

/**
 * The tool picked before the learner picks one: a task tool, so the first
 * call shows what the page is about (a handle, polls, a status walking the
 * lifecycle), where `greet`, first on the list, never becomes a task.
 */
export const FIRST_TOOL = 'slow_compute';

export class Playground {
  readonly session: PageSession;
  readonly wire = new WireLog();
  readonly calls: ToolCalls;
  /** Where tasks are kept: the server's store, and the page's own journal and wire log. */
  readonly durability: Durability;
  /** The fault panel, over the session's simulated network. */
  readonly network: NetworkControls;
  /** The "also subscribe" switch: push as well as poll (T18). */
  readonly push: PushControls;
  /** The cluster control, when the session's server is a cluster behind the page's balancer. */
  readonly cluster: ClusterControls | undefined;
  #selectedTool = $state<string | undefined>();
  /** One card per actor, kept while the actor is listed. */
  readonly #cards = new WeakMap<TaskActor, FollowedTask>();
  /** The x-ray's readings over time, so a past history step can show what the store held then. */
  readonly #xrayHistory: XrayHistory;
  #tasks = $state.raw<readonly FollowedTask[]>([]);
  /** How many tasks are done, which ask for input: kept from each task's flags, never by walking the list. */
  readonly tally = new TaskTally<FollowedTask>();
  readonly #watchConnection: () => void;
  readonly #watchServer: () => void;
  readonly #watchTools: () => void;
  readonly #watchDeclare: () => void;

  constructor(session: PageSession, cluster?: ClusterEndpoint) {
    this.session = session;
    // On the world clock, as history steps are: a paused world keeps a step and its reading together.
    this.#xrayHistory = new XrayHistory(session, () => session.network.scheduler.now());
    this.cluster = cluster && new ClusterControls(cluster, session);
    this.durability = new Durability(session);
    this.network = new NetworkControls(session.network);
    this.push = new PushControls(session);
    this.calls = new ToolCalls(
      (request) => session.callTool(request),
      () => session.network.scheduler.now(),
    );
    this.#watchConnection = watch(session, 'connection');
    this.#watchServer = watch(session, 'server');
    this.#watchTools = watch(session, 'tools');
    this.#watchDeclare = watch(session, 'declareTasks');
    session.on('wire', (entry) => this.wire.add(entry));
    session.on('packet', (update) => this.wire.update(update));
    session.on('wire-restored', (entries) => this.wire.restore(entries));
    session.on('wire-cleared', () => this.wire.clear());
    session.on('fault', (notice) => this.wire.addFault(notice));
    session.on('reset', () => this.calls.clear());
    session.on('tasks', (actors) => {
      this.#tasks = actors.map((actor) => this.#card(actor));
      this.tally.follow(this.#tasks);
    });
  }

  get connection(): ConnectionState {
    this.#watchConnection();
    return this.session.connection.state;
  }

  get connectionDetail(): string | undefined {
    this.#watchConnection();
    return this.session.connection.detail;
  }

  /** Reconnect attempts and when the next one starts, for the backoff countdown. */
  get connectionInfo(): ConnectionInfo {
    this.#watchConnection();
    return this.session.connection.info;
  }

  get workerRunning(): boolean {
    this.#watchServer();
    return this.session.server.running;
  }

  /** 1 for the first worker, +1 per restart: a restarted server has empty memory. */
  get workerGeneration(): number {
    this.#watchServer();
    return this.session.server.generation;
  }

  get tools(): readonly ToolInfo[] {
    this.#watchTools();
    return this.session.tools.tools;
  }

  get toolsError(): string | undefined {
    this.#watchTools();
    return this.session.tools.error;
  }

  get selectedTool(): ToolInfo | undefined {
    const tools = this.tools;
    return tools.find((tool) => tool.name === (this.#selectedTool ?? FIRST_TOOL)) ?? tools[0];
  }

  select(toolName: string): void {
    this.#selectedTool = toolName;
  }

  /** Whether each tools/call declares io.modelcontextprotocol/tasks (T1). On by default. */
  get declareTasks(): boolean {
    this.#watchDeclare();
    return this.session.declareTasks;
  }

  set declareTasks(value: boolean) {
    this.session.declareTasks = value;
  }

  /** Followed tasks, newest first. */
  get tasks(): readonly FollowedTask[] {
    return this.#tasks;
  }

  loadTools(): Promise<void> {
    return this.session.loadTools();
  }

  /** Calls a tool with the current declaration switch. */
  call(toolName: string, args: Record<string, unknown>): Promise<CallOutcome> {
    return this.calls.call(toolName, args, this.session.declareTasks);
  }

  /** Removes a task card; a task still running is forgotten first (T17 allows it). */
  dismissTask(task: FollowedTask): void {
    this.session.dismiss(task.taskId);
  }

  /** Removes every finished card, from the page and from storage. */
  clearFinished(): void {
    this.session.clearFinished();
  }

  setServerStore(kind: TaskStoreKind): void {
    this.session.setServerStore(kind);
  }

  followById(raw: string): Promise<string | undefined> {
    return this.session.followById(raw);
  }

  clearEverything(): Promise<void> {
    return this.session.clearEverything();
  }

  dropConnection(): void {
    this.session.dropConnection();
  }

  killWorker(): void {
    this.session.killServer();
  }

  restartWorker(): void {
    this.session.restartServer();
  }

  #card(actor: TaskActor): FollowedTask {
    let card = this.#cards.get(actor);
    if (!card)
      this.#cards.set(actor, (card = new FollowedTask(actor, this.session, this.#xrayHistory)));
    return card;
  }
}
