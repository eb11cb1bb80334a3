/**
 * Runs tool jobs, as tasks in the background or inline for one request.
 * A running task job talks to the world only through the store: progress,
 * input requests and the outcome are written there, and cancel requests
 * and answers are read from there, so whichever node serves `tasks/*`
 * reaches the job (C1).
 *
 * Durable jobs: a runner writes to a task only while it holds the task's
 * lease (every write checks it, inside the store's atomic update), renews
 * it by heartbeat, and stops a job whose lease another runner took. A job
 * saves checkpoints; a fresh runner resumes an orphaned job from the last one.
 *
 * A runner's jobs write through one queue (batched-writes.ts): their
 * reports and checkpoints share one store transaction at a time. One timer
 * renews every lease the runner holds, in one write of its own
 * (lease-heartbeat.ts); asking for input is job-input.ts.
 */
import { ErrorCode } from '../protocol/constants.ts';
import { isTerminal, type CallToolResult } from '../protocol/task.ts';
import { BatchedWrites } from './batched-writes.ts';
import { askInput } from './job-input.ts';
import { finish, withPollInterval, withStatusMessage, type Outcome } from './task-lifecycle.ts';
import { JobClock } from './job-clock.ts';
import { LeaseHeartbeat } from './lease-heartbeat.ts';
import {
  claimLease,
  dropLease,
  HEARTBEAT_MS,
  holdsLease,
  LEASE_MS,
  markResumed,
  withCheckpoint,
} from './task-durability.ts';
import type { Lease, TaskRecord, TaskStore, TaskUpdate } from './task-store.ts';
import { JobCancelled, JobProtocolError, type JobContext, type ToolDefinition } from './tool.ts';
import { errorMessage } from '../protocol/error-message.ts';

export interface JobRunnerOptions {
  now?: () => number;
  /** This runner's id in leases; random unless given. */
  holder?: string;
  /** How long a lease lasts without a heartbeat. */
  leaseMs?: number;
  /** How often held leases are renewed. */
  heartbeatMs?: number;
  /** The time jobs sleep on; the worker's can be held by the drill. */
  clock?: JobClock;
}

/** How a resumed run differs from a first one. */
interface Resumption {
  /** The last checkpoint's data. */
  from: unknown;
  /** Input keys an earlier run issued: asked again, they are waited for, never issued twice (T14). */
  issuedBefore: ReadonlySet<string>;
}

type Job = (context: JobContext<unknown>) => Promise<CallToolResult>;

export class JobRunner {
  readonly #store: TaskStore;
  readonly #now: () => number;
  readonly #holder: string;
  readonly #leaseMs: number;
  readonly #heartbeatMs: number;
  readonly #clock: JobClock;
  readonly #writes: BatchedWrites;
  readonly #running = new Map<string, Promise<void>>();
  /** The leases of the jobs running here, and the timer that renews them. */
  readonly #heartbeat: LeaseHeartbeat;
  /** What each running job does with a write to its task: one store subscription serves them all. */
  readonly #watchers = new Map<string, (record: TaskRecord) => void>();
  readonly #unsubscribe: () => void;
  #stopped = false;

  constructor(store: TaskStore, options: JobRunnerOptions = {}) {
    this.#store = store;
    this.#now = options.now ?? Date.now;
    this.#holder = options.holder ?? `runner-${crypto.randomUUID().slice(0, 8)}`;
    this.#leaseMs = options.leaseMs ?? LEASE_MS;
    this.#heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.#clock = options.clock ?? new JobClock();
    this.#writes = new BatchedWrites(store);
    this.#heartbeat = new LeaseHeartbeat({
      store,
      holder: this.#holder,
      now: this.#now,
      leaseMs: this.#leaseMs,
      heartbeatMs: this.#heartbeatMs,
      isStopped: () => this.#stopped,
    });
    this.#unsubscribe = store.subscribe((record) => this.#watchers.get(record.taskId)?.(record));
  }

  /** How often this runner renews its leases. */
  get heartbeatMs(): number {
    return this.#heartbeatMs;
  }

  /** This runner's id, as its leases name it. */
  get holder(): string {
    return this.#holder;
  }

  /** A fresh lease for this runner: a task is created holding it, so no other runner adopts it before its job starts. */
  newLease(): Lease {
    return { holder: this.#holder, expiresAt: this.#now() + this.#leaseMs };
  }

  /** Whether this runner is running (or about to run) the job of `taskId`. */
  isRunning(taskId: string): boolean {
    return this.#running.has(taskId);
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
  async runInline(
    tool: ToolDefinition,
    args: unknown,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    return tool.run({
      args,
      preTaskInput: {},
      signal,
      asTask: false,
      report: async () => {},
      suggestPollInterval: async () => {},
      sleep: (ms) => this.#clock.sleep(ms, signal),
      sleepThroughCancel: (ms) => this.#clock.sleep(ms),
      askInput: async () => {
        throw new JobProtocolError(
          ErrorCode.InternalError,
          `${tool.name} needs input, which only a task can ask for`,
        );
      },
      resumeFrom: undefined,
      checkpoint: async () => {},
    });
  }

  /** Starts the job of a stored task and returns at once. The record must hold this runner's {@link newLease}. */
  start(
    record: TaskRecord,
    tool: ToolDefinition,
    args: unknown,
    preTaskInput: Record<string, unknown> = {},
  ): void {
    this.#track(
      record.taskId,
      this.#runTask(record.taskId, (context) => tool.run(context), args, preTaskInput),
    );
  }

  /**
   * Takes over the job of a task whose runner stopped: claims its lease
   * (nothing happens when another runner holds it), then runs the tool again
   * from the last checkpoint. A job that cannot resume keeps the lease
   * without running, says so, and ends by its TTL (T13). Returns at once.
   */
  resume(record: TaskRecord, tool: ToolDefinition | undefined): void {
    if (this.#stopped || this.#running.has(record.taskId)) return;
    this.#track(record.taskId, this.#resume(record.taskId, tool, record.lease?.holder));
  }

  /**
   * Stops every job here without writing anything more, as a killed worker
   * would: their leases run out, and another runner carries them on.
   */
  stop(): void {
    this.#stopped = true;
    this.#heartbeat.abandonAll();
    this.#unsubscribe();
  }

  #track(taskId: string, work: Promise<void>): void {
    const done = work
      .catch((error: unknown) =>
        console.error(`[runner] the job of task ${taskId} stopped on a store failure`, error),
      )
      .finally(() => this.#running.delete(taskId));
    this.#running.set(taskId, done);
  }

  /** `previous`: the runner whose lease ran out, as the scan saw it. */
  async #resume(
    taskId: string,
    tool: ToolDefinition | undefined,
    previous: string | undefined,
  ): Promise<void> {
    // The lease runs from when the claim is stored, not from when it was queued behind other writes.
    const claimed = await this.#writes.write(taskId, (r) =>
      this.#stopped ? r : claimLease(r, this.#holder, this.#now(), this.#leaseMs),
    );
    if (!claimed || !holdsLease(claimed, this.#holder)) return;
    const now = this.#now();
    // Cancelled while nobody ran it (T17): there is no work left to stop.
    if (claimed.cancelRequested) {
      await this.#write(taskId, (r) => dropLease(finish(r, { status: 'cancelled' }, now)));
      return;
    }
    const args = tool?.resumable ? tool.args.safeParse(claimed.arguments) : undefined;
    if (!tool || !args)
      return this.#park(
        claimed,
        tool
          ? `${tool.name} cannot carry on after the worker running it stopped`
          : `this server has no tool ${claimed.toolName}`,
      );
    if (!args.success)
      return this.#park(claimed, `its stored arguments no longer fit ${tool.name}`);
    const from = claimed.checkpoint;
    const message = from
      ? `resumed by a fresh worker from checkpoint: ${from.label}`
      : Object.keys({ ...claimed.takenResponses, ...claimed.inputResponses }).length > 0
        ? 'resumed by a fresh worker from the start (no checkpoint was saved); the answers already given are kept and not asked again'
        : 'resumed by a fresh worker from the start: no checkpoint was saved';
    const takeover = {
      by: this.#holder,
      ...(previous !== undefined && previous !== this.#holder ? { from: previous } : {}),
      ...(from ? { checkpoint: from.label } : {}),
    };
    await this.#write(taskId, (r) => markResumed(r, message, now, takeover));
    await this.#runTask(
      taskId,
      (context) => tool.run(context),
      args.data,
      {},
      { from: from?.data, issuedBefore: new Set(claimed.issuedInputKeys) },
    );
  }

  /** Holds an orphaned task that cannot resume until its TTL ends it (T13), or a cancel does (T17). */
  async #park(record: TaskRecord, why: string): Promise<void> {
    const now = this.#now();
    if (record.ttlMs === null) {
      // No TTL would ever end it: fail it now rather than leave it working forever.
      const error = { code: ErrorCode.InternalError, message: `Not resumed: ${why}` };
      await this.#write(record.taskId, (r) =>
        dropLease(finish(r, { status: 'failed', error }, now)),
      );
      return;
    }
    const endsAt = new Date(record.createdAt + record.ttlMs).toISOString();
    await this.#write(record.taskId, (r) =>
      withStatusMessage(
        r,
        `Not resumed: ${why}. It fails when its TTL passes, at ${endsAt} (T13).`,
        now,
      ),
    );
    const waitForTheEnd: Job = ({ signal }) =>
      new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(new JobCancelled()), { once: true }),
      );
    await this.#runTask(record.taskId, waitForTheEnd, undefined, {});
  }

  /**
   * Applies `change` only while this runner holds the task's lease: a runner that lost it writes
   * nothing, and neither does a stopped one, even with writes still queued.
   */
  #write(taskId: string, change: TaskUpdate): Promise<TaskRecord | undefined> {
    if (this.#stopped) return Promise.resolve(undefined);
    return this.#writes.write(taskId, (r) =>
      !this.#stopped && holdsLease(r, this.#holder) ? change(r) : r,
    );
  }

  async #runTask(
    taskId: string,
    job: Job,
    args: unknown,
    preTaskInput: Record<string, unknown>,
    resumption?: Resumption,
  ): Promise<void> {
    const controller = new AbortController();
    const waiters = new Set<(record: TaskRecord) => void>();
    // The job is no longer this runner's: it was stopped, or another runner took the lease.
    let abandoned = false;
    const abandon = (): void => {
      abandoned = true;
      // Only this run's entry: a late renewal may abandon a run after the same task started again here.
      this.#heartbeat.release(taskId, abandon);
      controller.abort();
    };
    this.#heartbeat.hold(taskId, abandon);
    // Cancel requests, expiry and take-overs arrive as store writes, possibly from another node.
    this.#watchers.set(taskId, (record) => {
      if (record.cancelRequested || isTerminal(record.status)) controller.abort();
      else if (!holdsLease(record, this.#holder)) abandon();
      for (const waiter of waiters) waiter(record);
    });

    const context: JobContext<unknown> = {
      args,
      preTaskInput,
      signal: controller.signal,
      asTask: true,
      report: async (statusMessage) => {
        await this.#write(taskId, (r) => withStatusMessage(r, statusMessage, this.#now()));
      },
      suggestPollInterval: async (pollIntervalMs) => {
        await this.#write(taskId, (r) => withPollInterval(r, pollIntervalMs, this.#now()));
      },
      sleep: (ms) => this.#clock.sleep(ms, controller.signal),
      sleepThroughCancel: (ms) => this.#clock.sleep(ms),
      askInput: (requests) =>
        askInput(
          {
            write: (id, change) => this.#write(id, change),
            get: (id) => this.#store.get(id),
            now: this.#now,
          },
          taskId,
          requests,
          controller.signal,
          waiters,
          resumption?.issuedBefore ?? new Set(),
        ),
      resumeFrom: resumption?.from,
      checkpoint: async (data, label) => {
        await this.#write(taskId, (r) => withCheckpoint(r, data, label, this.#now()));
      },
    };

    let outcome: Outcome;
    try {
      if (this.#stopped) abandon();
      outcome = { status: 'completed', result: await job(context) };
    } catch (error) {
      outcome = outcomeOfError(error);
    } finally {
      this.#watchers.delete(taskId);
      this.#heartbeat.end(taskId, abandon);
    }
    if (abandoned) return;
    await this.#write(taskId, (r) => dropLease(finish(r, outcome, this.#now())));
  }
}

function outcomeOfError(error: unknown): Outcome {
  if (error instanceof JobCancelled) return { status: 'cancelled' };
  if (error instanceof JobProtocolError) {
    return {
      status: 'failed',
      error: {
        code: error.code,
        message: error.message,
        ...(error.data !== undefined ? { data: error.data } : {}),
      },
    };
  }
  // A bug in a job is still a protocol-level failure of the task, not a tool result (T11).
  const message = errorMessage(error);
  return {
    status: 'failed',
    error: { code: ErrorCode.InternalError, message: `Internal error: ${message}` },
  };
}
