/**
 * What a check runs with: the target, the user's tools, a `send` that records each exchange
 * on the check that made it, and the tasks the checks share (one created by the chosen tool,
 * one asking for input), each made once and listed on every check that relies on it.
 */
import { Method } from '../protocol/constants.ts';
import { isTerminal, TaskStatusSchema, type TaskStatus } from '../protocol/task.ts';
import type { CheckExchange, CheckVerdict } from './check-report.ts';
import {
  exchange,
  requestBody,
  type Answer,
  type CheckTarget,
  type RequestShape,
} from './raw-exchange.ts';

/** The tools the checks call, chosen by the user since servers differ in which run as tasks. */
export interface CheckOptions {
  /** A tool the server runs as a task. */
  tool: string;
  arguments?: Record<string, unknown>;
  /** A tool whose task asks for input with two keys at once (T15); its checks are n/a without it. */
  inputTool?: string;
  inputArguments?: Record<string, unknown>;
  /** A tool whose task ends with `isError: true` (T11); its check is n/a without it. */
  errorTool?: string;
  errorArguments?: Record<string, unknown>;
  /** How long a check waits for a task to reach a status (default 30 s). */
  settleMs?: number;
}

/** The tools a check may need beyond the one every run names. */
export type OptionalTool = 'inputTool' | 'errorTool';

export const DEFAULT_SETTLE_MS = 30_000;

/** A check's verdict and why, in words. */
export interface Outcome {
  verdict: CheckVerdict;
  detail: string;
}

/** One check: its identity for the list shown before running, and how it decides. */
export interface ServerCheck {
  readonly id: string;
  readonly rules: readonly string[];
  readonly title: string;
  /** The optional tools it cannot do without: left unnamed, the check is not applicable. */
  readonly needs?: readonly OptionalTool[];
  run(context: CheckContext): Promise<Outcome>;
}

/** A `tools/call` answer read as a task handle, when it is one. */
export function taskIdOf(answer: Answer): string | undefined {
  if (answer.kind !== 'result' || answer.result['resultType'] !== 'task') return undefined;
  const id = answer.result['taskId'];
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The status a `tasks/get` result reports, if it is one of the five. */
export function statusOf(answer: Answer): TaskStatus | undefined {
  if (answer.kind !== 'result') return undefined;
  const parsed = TaskStatusSchema.safeParse(answer.result['status']);
  return parsed.success ? parsed.data : undefined;
}

/** An answer in a few words, for a check's detail. */
export function describeAnswer(answer: Answer): string {
  switch (answer.kind) {
    case 'error':
      return `error ${answer.error.code} ("${answer.error.message}")`;
    case 'none':
      return answer.why;
    case 'result': {
      const type = answer.result['resultType'];
      const status = answer.result['status'];
      return `a result (resultType ${JSON.stringify(type)}${typeof status === 'string' ? `, status "${status}"` : ''})`;
    }
  }
}

/** A value found once in a run, with the exchanges it took. */
interface Shared<T> {
  value: T;
  exchanges: readonly CheckExchange[];
}

/** The state every check of one run shares; `forCheck` gives each check its own exchange list. */
export class CheckRun {
  private readonly found = new Map<string, Promise<Shared<unknown>>>();
  /** Tasks the run created, cancelled (unrecorded) at the end so none is left working. */
  readonly createdTaskIds = new Set<string>();

  constructor(
    readonly target: CheckTarget,
    readonly options: CheckOptions,
    readonly signal?: AbortSignal,
  ) {}

  forCheck(): CheckContext {
    return new CheckContext(this);
  }

  /**
   * What `make` finds, made the first time any check asks for `key`, with the exchanges it
   * took: shared by the checks that rely on it (one task, one call without the extension).
   */
  once<T>(key: string, make: (context: CheckContext) => Promise<T>): Promise<Shared<T>> {
    let made = this.found.get(key) as Promise<Shared<T>> | undefined;
    if (!made) {
      const context = this.forCheck();
      made = make(context).then((value) => ({ value, exchanges: context.exchanges }));
      this.found.set(key, made);
    }
    return made;
  }

  /** Cancels what the run left unfinished; nothing here is part of any verdict. */
  async cleanUp(): Promise<void> {
    for (const taskId of this.createdTaskIds) {
      await exchange(this.target, requestBody(Method.tasksCancel, { taskId }), {}, this.signal);
    }
  }
}

/** One check's view of the run: what it sends is recorded on it. */
export class CheckContext {
  readonly exchanges: CheckExchange[] = [];

  constructor(private readonly run: CheckRun) {}

  get options(): CheckOptions {
    return this.run.options;
  }

  get settleMs(): number {
    return this.run.options.settleMs ?? DEFAULT_SETTLE_MS;
  }

  /** Sends one request (`tasks: false` leaves the extension out) and records the exchange. */
  async send(
    method: string,
    params: Record<string, unknown>,
    shape: RequestShape = {},
  ): Promise<Answer> {
    const body = requestBody(method, params, shape.tasks ?? true);
    const { answer, record } = await exchange(this.run.target, body, shape, this.run.signal);
    this.exchanges.push(record);
    const taskId = method === Method.toolsCall ? taskIdOf(answer) : undefined;
    if (taskId !== undefined) this.run.createdTaskIds.add(taskId);
    return answer;
  }

  /** What `make` finds, once per run under `key`; every check that uses it lists its exchanges. */
  async shared<T>(key: string, make: (context: CheckContext) => Promise<T>): Promise<T> {
    const { value, exchanges } = await this.run.once(key, make);
    this.exchanges.push(...exchanges);
    return value;
  }

  /** Like `send`, made once per run under `key`. */
  sendOnce(
    key: string,
    method: string,
    params: Record<string, unknown>,
    shape: RequestShape = {},
  ): Promise<Answer> {
    return this.shared(key, (context) => context.send(method, params, shape));
  }

  /** The task the chosen tool creates with the extension declared, made once per run. */
  createdTask(): Promise<Answer> {
    const { tool, arguments: args = {} } = this.options;
    return this.sendOnce('created-task', Method.toolsCall, { name: tool, arguments: args });
  }

  /** The chosen tool's call without the extension (T3), made once per run. */
  callWithoutExtension(tool: string, args: Record<string, unknown>): Promise<Answer> {
    return this.sendOnce(
      `no-extension:${tool}`,
      Method.toolsCall,
      { name: tool, arguments: args },
      { tasks: false },
    );
  }

  /**
   * Polls `tasks/get` at the task's own `pollIntervalMs` until `done` holds, the task is
   * terminal, or `settleMs` passes; the last answer is returned either way.
   */
  async pollUntil(
    taskId: string,
    done: (answer: Answer) => boolean,
  ): Promise<{ answer: Answer; settled: boolean }> {
    const deadline = Date.now() + this.settleMs;
    for (;;) {
      const answer = await this.send(Method.tasksGet, { taskId });
      const status = statusOf(answer);
      if (done(answer)) return { answer, settled: true };
      if (answer.kind !== 'result' || status === undefined || isTerminal(status))
        return { answer, settled: false };
      const interval = answer.result['pollIntervalMs'];
      const wait = Math.min(
        5_000,
        Math.max(50, typeof interval === 'number' ? interval : 500),
        deadline - Date.now(),
      );
      if (wait <= 0 || this.run.signal?.aborted) return { answer, settled: false };
      await sleep(wait, this.run.signal);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(finish, ms);
    signal?.addEventListener('abort', finish, { once: true });
    function finish(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      done();
    }
  });
}
