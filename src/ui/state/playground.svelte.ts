/**
 * The whole page's state: one server worker, one MCP client connected to
 * it as `learner`, the server's tools, the learner's calls and the tasks
 * being followed, and the wire log of every message between them.
 */
import { RpcClient, type ConnectionState } from '../../client/rpc-client.ts';
import { TaskFollower } from '../../client/task-follower.ts';
import { listTools, type ToolInfo } from '../../client/tool-catalog.ts';
import { ServerWorker } from '../../net/server-worker.ts';
import type { CreateTaskResult } from '../../protocol/task.ts';
import { FollowedTask } from './followed-task.svelte.ts';
import { ToolCalls } from './tool-calls.svelte.ts';
import { WireLog } from './wire-log.svelte.ts';

/** Who the page connects as; tasks belong to it (T20). */
export const IDENTITY = 'learner';

export class Playground {
  readonly wire = new WireLog();
  readonly calls: ToolCalls;
  readonly #worker = new ServerWorker();
  readonly #client: RpcClient;
  readonly #follower: TaskFollower;
  #connection = $state<ConnectionState>('connecting');
  #connectionDetail = $state<string | undefined>();
  #workerGeneration = $state(0);
  #workerRunning = $state(false);
  #tools = $state.raw<readonly ToolInfo[]>([]);
  #toolsError = $state<string | undefined>();
  #selectedTool = $state<string | undefined>();
  #declareTasks = $state(true);
  #tasks = $state.raw<readonly FollowedTask[]>([]);

  constructor() {
    this.#client = new RpcClient({
      clientInfo: { name: 'mcp-tasks-playground-page', version: '0.1.0' },
      connect: () => this.#worker.connect(IDENTITY),
      onWire: (entry) => this.wire.add(entry),
      onNotification: (notification) => this.#follower.notify(notification),
      onConnectionState: (state, detail) => {
        this.#connection = state;
        this.#connectionDetail = detail;
      },
    });
    this.#follower = new TaskFollower(this.#client);
    this.calls = new ToolCalls(this.#client, (task, toolName) => this.#follow(task, toolName));
  }

  /** Starts the server worker, connects, and lists the tools. */
  async start(): Promise<void> {
    this.#worker.start();
    this.#syncWorker();
    await this.#client.start();
    await this.loadTools();
  }

  stop(): void {
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
      this.#toolsError = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error);
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
  }

  /** Breaks the page's link; the client reconnects and re-issues what was in flight (C8, M3). */
  dropConnection(): void {
    this.#client.dropConnection('connection dropped by the learner');
  }

  /** Kills the server worker: every link breaks and the in-memory tasks are lost. */
  killWorker(): void {
    this.#worker.kill();
    this.#syncWorker();
  }

  restartWorker(): void {
    this.#worker.restart();
    this.#syncWorker();
  }

  #follow(task: CreateTaskResult, toolName: string): void {
    this.#tasks = [new FollowedTask(this.#follower.follow(task, toolName)), ...this.#tasks];
  }

  #syncWorker(): void {
    this.#workerRunning = this.#worker.running;
    this.#workerGeneration = this.#worker.generation;
  }
}
