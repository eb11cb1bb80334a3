/**
 * The server's task logic, free of any SDK or transport: what `tools/call`,
 * `tasks/get`, `tasks/update` and `tasks/cancel` do for one caller. The SDK
 * adapter (create-server.ts) turns a thrown {@link RpcFault} into a JSON-RPC
 * error response.
 */
import { ErrorCode, TASKS_EXTENSION } from '../protocol/constants.ts';
import type {
  CallToolResult,
  CreateTaskResult,
  DetailedTask,
  InputRequest,
} from '../protocol/task.ts';
import { newTaskId } from './identity.ts';
import type { JobRunner } from './job-runner.ts';
import { acceptResponses, expire, expiryOf, requestCancel } from './task-lifecycle.ts';
import type { TaskRecord, TaskStore } from './task-store.ts';
import { createTaskResult, detailedTask } from './task-view.ts';
import { JobProtocolError, textResult, type ToolDefinition } from './tool.ts';
import { realTimers, type Timers } from '../clock/timers.ts';

/** The core multi-round-trip interim result (C4, T16). */
export type InputRequiredResult = {
  resultType: 'input_required';
  inputRequests: Record<string, InputRequest>;
};

/** A JSON-RPC error to answer with. */
export class RpcFault extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcFault';
  }
}

/** A task's TTL when its tool names none (T6, T13). */
export const DEFAULT_TTL_MS = 5 * 60_000;
/** How long an expired task stays visible as `failed` before it is deleted, unless configured (T13). */
export const DEFAULT_PURGE_AFTER_MS = 60_000;

export interface TaskServiceOptions {
  store: TaskStore;
  runner: JobRunner;
  tools: readonly ToolDefinition[];
  now?: () => number;
  /** Default TTL of a task (T6, T13). */
  defaultTtlMs?: number | null;
  /** Default poll interval suggested to clients (T12). */
  defaultPollIntervalMs?: number;
  /** How long an expired task stays visible as `failed` before it is deleted (T13). */
  purgeAfterMs?: number;
  /**
   * The T8 bug on purpose, for the cluster lesson: when above 0, the handle
   * leaves before the task's store write, which lands this many ms later, so
   * a tasks/get served meanwhile (by another node) answers -32602. Absent or
   * 0: stored first, as T8 requires.
   */
  earlyHandleMs?: number;
  /** Clock and timers (the world clock in the worker); the real ones by default. */
  timers?: Timers;
}

/** What one request tells the service about its caller. */
export interface Caller {
  /** Digest of the caller's identity (T20). */
  owner: string;
  /** Whether this request's envelope declares the tasks extension (T1). */
  declaresTasks: boolean;
}

/** T3, T4: the error for a caller that did not declare the extension. */
export function missingTasksCapability(what: string): RpcFault {
  return new RpcFault(
    ErrorCode.MissingRequiredClientCapability,
    `${what} requires the ${TASKS_EXTENSION} extension; declare it in this request's clientCapabilities`,
    {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    },
  );
}

export class TaskService {
  readonly #store: TaskStore;
  readonly #runner: JobRunner;
  readonly #tools: Map<string, ToolDefinition>;
  readonly #now: () => number;
  readonly #defaultTtlMs: number | null;
  readonly #defaultPollIntervalMs: number;
  readonly #purgeAfterMs: number;
  readonly #earlyHandleMs: number;
  readonly #timers: Timers;

  constructor(options: TaskServiceOptions) {
    this.#store = options.store;
    this.#runner = options.runner;
    this.#tools = new Map(options.tools.map((t) => [t.name, t]));
    this.#timers = options.timers ?? realTimers;
    this.#now = options.now ?? (() => this.#timers.now());
    this.#defaultTtlMs = options.defaultTtlMs === undefined ? DEFAULT_TTL_MS : options.defaultTtlMs;
    this.#defaultPollIntervalMs = options.defaultPollIntervalMs ?? 1000;
    this.#purgeAfterMs = options.purgeAfterMs ?? DEFAULT_PURGE_AFTER_MS;
    this.#earlyHandleMs = options.earlyHandleMs ?? 0;
  }

  get tools(): readonly ToolDefinition[] {
    return [...this.#tools.values()];
  }

  tool(name: string): ToolDefinition {
    const tool = this.#tools.get(name);
    if (!tool) throw new RpcFault(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return tool;
  }

  /**
   * `tools/call`: the server alone decides whether this call becomes a
   * task (T2), and never answers with one when the request did not declare
   * the extension (T3).
   */
  async callTool(
    caller: Caller,
    name: string,
    rawArgs: unknown,
    signal: AbortSignal,
    inputResponses: Record<string, unknown> = {},
  ): Promise<CallToolResult | CreateTaskResult | InputRequiredResult> {
    const tool = this.tool(name);
    const parsed = tool.args.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      // Bad arguments are the tool's own error, reported so a model could correct itself.
      return textResult(
        `Invalid arguments for ${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
        true,
      );
    }
    if (tool.execution === 'sync' || (tool.execution === 'task' && !caller.declaresTasks)) {
      return this.#runInline(tool, parsed.data, signal);
    }
    if (!caller.declaresTasks) throw missingTasksCapability(`Tool ${name}`);
    // T16: input needed before the task exists rides the core multi-round-trip flow.
    const wanted = tool.preTaskInput ?? {};
    const missing = Object.fromEntries(
      Object.entries(wanted).filter(([key]) => !Object.hasOwn(inputResponses, key)),
    );
    if (Object.keys(missing).length > 0)
      return { resultType: 'input_required', inputRequests: missing };
    const preTaskInput = Object.fromEntries(
      Object.keys(wanted).map((key) => [key, inputResponses[key]]),
    );
    return this.startTask(caller, tool, parsed.data, rawArgs, preTaskInput);
  }

  async #runInline(
    tool: ToolDefinition,
    args: unknown,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    try {
      return await this.#runner.runInline(tool, args, signal);
    } catch (error) {
      if (error instanceof JobProtocolError)
        throw new RpcFault(error.code, error.message, error.data);
      throw error;
    }
  }

  /** Stores a new task, starts its job, and returns the handle (T7, T8). */
  async startTask(
    caller: Caller,
    tool: ToolDefinition,
    args: unknown,
    rawArgs: unknown,
    preTaskInput: Record<string, unknown> = {},
  ): Promise<CreateTaskResult> {
    const now = this.#now();
    const record: TaskRecord = {
      taskId: newTaskId(),
      owner: caller.owner,
      toolName: tool.name,
      arguments: isObject(rawArgs) ? rawArgs : {},
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: tool.ttlMs === undefined ? this.#defaultTtlMs : tool.ttlMs,
      pollIntervalMs:
        (typeof tool.pollIntervalMs === 'function'
          ? tool.pollIntervalMs(args)
          : tool.pollIntervalMs) ?? this.#defaultPollIntervalMs,
      inputRequests: {},
      issuedInputKeys: [],
      inputResponses: {},
      cancelRequested: false,
      // Stored holding this runner's lease, so no other worker adopts it before its job starts.
      lease: this.#runner.newLease(),
    };
    if (this.#earlyHandleMs > 0) {
      // Breaks T8 on purpose (see earlyHandleMs): the handle first, the write later.
      this.#timers.setTimeout(() => {
        void this.#store.create(record).then(() => {
          this.#runner.start(record, tool, args, preTaskInput);
        });
      }, this.#earlyHandleMs);
      return createTaskResult(record);
    }
    // T8: stored before the handle leaves, so a tasks/get for it resolves at once.
    await this.#store.create(record);
    this.#runner.start(record, tool, args, preTaskInput);
    return createTaskResult(record);
  }

  /** `tasks/get` (T10). */
  async getTask(caller: Caller, taskId: unknown): Promise<DetailedTask> {
    return detailedTask(await this.#load(caller, taskId, 'tasks/get'));
  }

  /** `tasks/update` (T15): the ack is empty and says nothing about what was accepted. */
  async updateTask(
    caller: Caller,
    taskId: unknown,
    responses: Record<string, unknown>,
  ): Promise<void> {
    const record = await this.#load(caller, taskId, 'tasks/update');
    await this.#store.update(record.taskId, (r) => acceptResponses(r, responses, this.#now()));
  }

  /** `tasks/cancel` (T17): a request, acknowledged at once; the job decides. */
  async cancelTask(caller: Caller, taskId: unknown): Promise<void> {
    const record = await this.#load(caller, taskId, 'tasks/cancel');
    await this.#store.update(record.taskId, (r) => requestCancel(r, this.#now()));
  }

  /** Applies T13 to every stored task: expire what is overdue, delete what is long gone. */
  async sweep(): Promise<void> {
    for (const record of await this.#store.all()) await this.#applyExpiry(record);
  }

  /**
   * Finds a caller's task. A missing id, an expired-and-purged id and
   * another identity's id all get the very same error (T13, T20).
   */
  async #load(caller: Caller, taskId: unknown, method: string): Promise<TaskRecord> {
    if (!caller.declaresTasks) throw missingTasksCapability(method);
    if (typeof taskId !== 'string' || taskId.length === 0)
      throw new RpcFault(
        ErrorCode.InvalidParams,
        `${method}: params.taskId must be a non-empty string`,
      );
    const stored = await this.#store.get(taskId);
    const record =
      stored && stored.owner === caller.owner ? await this.#applyExpiry(stored) : undefined;
    if (!record) throw new RpcFault(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
    return record;
  }

  async #applyExpiry(record: TaskRecord): Promise<TaskRecord | undefined> {
    const purgeAfterMs = this.#tools.get(record.toolName)?.purgeAfterMs ?? this.#purgeAfterMs;
    switch (expiryOf(record, this.#now(), purgeAfterMs)) {
      case 'live':
        return record;
      case 'expire':
        return this.#store.update(record.taskId, (r) => expire(r, this.#now()));
      case 'purge':
        await this.#store.delete(record.taskId);
        return undefined;
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
