/**
 * Runs tool jobs, as tasks in the background or inline for one request.
 * A running task job talks to the world only through the store: progress,
 * input requests and the outcome are written there, and cancel requests
 * and answers are read from there, so whichever node serves `tasks/*`
 * reaches the job (C1).
 */
import { ErrorCode } from '../protocol/constants.ts';
import { isTerminal, type CallToolResult, type InputRequest } from '../protocol/task.ts';
import { allAnswered, finish, requestInput, takeResponses, withStatusMessage, type Outcome } from './task-lifecycle.ts';
import type { TaskRecord, TaskStore } from './task-store.ts';
import { JobCancelled, JobProtocolError, type JobContext, type ToolDefinition } from './tool.ts';

export class JobRunner {
  readonly #store: TaskStore;
  readonly #now: () => number;
  readonly #running = new Map<string, Promise<void>>();

  constructor(store: TaskStore, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  /** How many task jobs are running now. */
  get runningCount(): number {
    return this.#running.size;
  }

  /** Resolves when every running job has ended (for tests and clean shutdown). */
  async settled(): Promise<void> {
    await Promise.all(this.#running.values());
  }

  /** Runs `tool` for one request and returns its result; the job cannot ask for input. */
  async runInline(tool: ToolDefinition, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
    return tool.run({
      args,
      preTaskInput: {},
      signal,
      asTask: false,
      report: async () => {},
      sleep: (ms) => sleep(ms, signal),
      sleepThroughCancel: (ms) => sleep(ms),
      askInput: async () => {
        throw new JobProtocolError(ErrorCode.InternalError, `${tool.name} needs input, which only a task can ask for`);
      },
    });
  }

  /** Starts the job of a stored task and returns at once. */
  start(record: TaskRecord, tool: ToolDefinition, args: unknown, preTaskInput: Record<string, unknown> = {}): void {
    const done = this.#runTask(record.taskId, tool, args, preTaskInput).finally(() => this.#running.delete(record.taskId));
    this.#running.set(record.taskId, done);
  }

  async #runTask(taskId: string, tool: ToolDefinition, args: unknown, preTaskInput: Record<string, unknown>): Promise<void> {
    const controller = new AbortController();
    const waiters = new Set<(record: TaskRecord) => void>();
    // Cancel requests and expiry arrive as store writes, possibly from another node.
    const unsubscribe = this.#store.subscribe((record) => {
      if (record.taskId !== taskId) return;
      if (record.cancelRequested || isTerminal(record.status)) controller.abort();
      for (const waiter of waiters) waiter(record);
    });

    const context: JobContext<unknown> = {
      args,
      preTaskInput,
      signal: controller.signal,
      asTask: true,
      report: async (statusMessage) => {
        await this.#store.update(taskId, (r) => withStatusMessage(r, statusMessage, this.#now()));
      },
      sleep: (ms) => sleep(ms, controller.signal),
      sleepThroughCancel: (ms) => sleep(ms),
      askInput: (requests) => this.#askInput(taskId, requests, controller.signal, waiters),
    };

    let outcome: Outcome;
    try {
      outcome = { status: 'completed', result: await tool.run(context) };
    } catch (error) {
      outcome = outcomeOfError(error);
    } finally {
      unsubscribe();
    }
    await this.#store.update(taskId, (r) => finish(r, outcome, this.#now()));
  }

  async #askInput(
    taskId: string,
    requests: Record<string, InputRequest>,
    signal: AbortSignal,
    waiters: Set<(record: TaskRecord) => void>,
  ): Promise<Record<string, unknown>> {
    const keys = Object.keys(requests);
    if (signal.aborted) throw new JobCancelled();
    const current = await this.#store.update(taskId, (r) => requestInput(r, requests, this.#now()));
    return new Promise((resolve, reject) => {
      let settled = false;
      const onAbort = (): void => {
        if (settled) return;
        settled = true;
        waiters.delete(check);
        reject(new JobCancelled());
      };
      const check = (record: TaskRecord): void => {
        if (settled || !allAnswered(record, keys)) return;
        settled = true;
        waiters.delete(check);
        signal.removeEventListener('abort', onAbort);
        const answers = Object.fromEntries(keys.map((key) => [key, record.inputResponses[key]]));
        this.#store.update(taskId, (r) => takeResponses(r, keys, this.#now())).then(() => resolve(answers), reject);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      waiters.add(check);
      if (current) check(current);
    });
  }
}

function outcomeOfError(error: unknown): Outcome {
  if (error instanceof JobCancelled) return { status: 'cancelled' };
  if (error instanceof JobProtocolError) {
    return { status: 'failed', error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) } };
  }
  // A bug in a job is still a protocol-level failure of the task, not a tool result (T11).
  const message = error instanceof Error ? error.message : String(error);
  return { status: 'failed', error: { code: ErrorCode.InternalError, message: `Internal error: ${message}` } };
}

/** Waits `ms`; with a signal, rejects with JobCancelled as soon as it aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new JobCancelled());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new JobCancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
