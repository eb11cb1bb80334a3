/**
 * Builds recorded exchanges by hand, on a made-up clock, for the grader's
 * pure checks: what a client sent (headers and body, as the grader records
 * them) and what the grader answered, without any server.
 */
import type { RecordedExchange } from '../../../src/grade/exchange.ts';
import { META, PROTOCOL_VERSION, TASKS_EXTENSION } from '../../../src/protocol/constants.ts';
import type { TaskStatus } from '../../../src/protocol/task.ts';

export interface SendOptions {
  /** Declare the tasks extension (default true). */
  declares?: boolean;
  /** The Mcp-Name header: the taskId by default for tasks/*; null leaves it out. */
  mcpName?: string | null;
  /** How long the answer took (ms, default 5). */
  answerAfter?: number;
  bearer?: string;
  connection?: number;
}

export interface TaskAnswer {
  status: TaskStatus;
  pollIntervalMs?: number;
}

/** A client's log, written in order; each method returns the record it added. */
export class ExchangeLog {
  readonly records: RecordedExchange[] = [];
  #id = 1;

  constructor(readonly defaults: { bearer?: string; clientName?: string } = { bearer: 'alice' }) {}

  #meta(declares: boolean): Record<string, unknown> {
    return {
      [META.protocolVersion]: PROTOCOL_VERSION,
      [META.clientInfo]: { name: this.defaults.clientName ?? 'builder', version: '1' },
      [META.clientCapabilities]: declares ? { extensions: { [TASKS_EXTENSION]: {} } } : {},
    };
  }

  #add(
    at: number,
    method: string,
    params: Record<string, unknown>,
    options: SendOptions,
    answer: unknown,
    mcpName: string | undefined,
    notification = false,
  ): RecordedExchange {
    const bearer = options.bearer ?? this.defaults.bearer;
    const record: RecordedExchange = {
      seq: this.records.length + 1,
      at,
      connection: options.connection ?? 1,
      mcpMethod: method,
      ...(mcpName === undefined ? {} : { mcpName }),
      ...(bearer === undefined ? {} : { bearer }),
      body: {
        jsonrpc: '2.0',
        ...(notification ? {} : { id: this.#id++ }),
        method,
        params: { ...params, _meta: this.#meta(options.declares ?? true) },
      },
      ...(answer === undefined
        ? {}
        : {
            answer: {
              at: at + (options.answerAfter ?? 5),
              httpStatus: 200,
              body: { jsonrpc: '2.0', id: this.#id - 1, ...(answer as object) },
            },
          }),
    };
    this.records.push(record);
    return record;
  }

  /** A request answered with a plain result. */
  request(at: number, method: string, options: SendOptions = {}): RecordedExchange {
    return this.#add(at, method, {}, options, { result: { resultType: 'complete' } }, undefined);
  }

  /** A `tools/call` answered with a task handle. */
  call(at: number, tool: string, taskId: string, task: TaskAnswer, options: SendOptions = {}) {
    return this.#add(
      at,
      'tools/call',
      { name: tool, arguments: {} },
      options,
      { result: { resultType: 'task', ...taskFields(taskId, task) } },
      tool,
    );
  }

  #taskRequest(
    at: number,
    method: string,
    taskId: string,
    extra: Record<string, unknown>,
    answer: unknown,
    options: SendOptions,
  ) {
    const mcpName = options.mcpName === null ? undefined : (options.mcpName ?? taskId);
    return this.#add(at, method, { taskId, ...extra }, options, answer, mcpName);
  }

  /** A `tasks/get` answered with a report, or with an error code. */
  get(at: number, taskId: string, task: TaskAnswer | number, options: SendOptions = {}) {
    const answer =
      typeof task === 'number'
        ? { error: { code: task, message: 'Task not found' } }
        : { result: { resultType: 'complete', ...taskFields(taskId, task) } };
    return this.#taskRequest(at, 'tasks/get', taskId, {}, answer, options);
  }

  /** Polls `taskId` from `from` every `everyMs`, `count` times, each answered `task`. */
  polls(from: number, everyMs: number, count: number, taskId: string, task: TaskAnswer) {
    for (let i = 0; i < count; i++) this.get(from + i * everyMs, taskId, task);
  }

  update(at: number, taskId: string, keys: string[], options: SendOptions = {}) {
    const inputResponses = Object.fromEntries(
      keys.map((k) => [k, { action: 'accept', content: { [k]: 'x' } }]),
    );
    return this.#taskRequest(
      at,
      'tasks/update',
      taskId,
      { inputResponses },
      { result: { resultType: 'complete' } },
      options,
    );
  }

  cancel(at: number, taskId: string, options: SendOptions = {}) {
    return this.#taskRequest(
      at,
      'tasks/cancel',
      taskId,
      {},
      { result: { resultType: 'complete' } },
      options,
    );
  }

  /** `notifications/cancelled` for the request `requestId` (the wrong way to cancel a task, T17). */
  cancelledNotification(at: number, requestId: number, options: SendOptions = {}) {
    return this.#add(
      at,
      'notifications/cancelled',
      { requestId },
      options,
      undefined,
      undefined,
      true,
    );
  }
}

function taskFields(taskId: string, task: TaskAnswer): Record<string, unknown> {
  const iso = new Date(0).toISOString();
  return {
    taskId,
    status: task.status,
    createdAt: iso,
    lastUpdatedAt: iso,
    ttlMs: 300_000,
    ...(task.pollIntervalMs === undefined ? {} : { pollIntervalMs: task.pollIntervalMs }),
  };
}
