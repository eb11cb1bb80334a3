/**
 * Finds orphaned jobs and hands them to the runner. A job is orphaned when
 * its task is unfinished and nobody renews its lease: the worker running it
 * was killed, or its page reloaded or closed. The scan runs when a server
 * starts and then every heartbeat, so a job left by a dead worker carries on
 * within a lease or so, in whichever worker shares the store.
 */
import { every, realTimers, type Timers } from '../clock/timers.ts';
import { leaseIsFree } from './task-durability.ts';
import type { JobRunner } from './job-runner.ts';
import type { TaskStore } from './task-store.ts';
import type { ToolDefinition } from './tool.ts';

export interface JobAdoptionOptions {
  now?: () => number;
  /** How often to look for orphans; 0 scans only when asked. */
  everyMs?: number;
  /** The scan's timer (the world clock in the worker). */
  timers?: Timers;
}

export class JobAdoption {
  readonly #store: TaskStore;
  readonly #runner: JobRunner;
  readonly #tools: ReadonlyMap<string, ToolDefinition>;
  readonly #now: () => number;
  readonly #everyMs: number;
  readonly #timers: Timers;
  #stopTimer: (() => void) | undefined;

  constructor(
    store: TaskStore,
    runner: JobRunner,
    tools: readonly ToolDefinition[],
    options: JobAdoptionOptions = {},
  ) {
    this.#store = store;
    this.#runner = runner;
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
    this.#timers = options.timers ?? realTimers;
    this.#now = options.now ?? (() => this.#timers.now());
    this.#everyMs = options.everyMs ?? 1000;
  }

  /** Hands every orphaned job to the runner; resolves with their task ids. */
  async scan(): Promise<string[]> {
    const now = this.#now();
    const adopted: string[] = [];
    for (const record of await this.#store.unfinished()) {
      if (this.#runner.isRunning(record.taskId) || !leaseIsFree(record, now)) continue;
      // Past its TTL the expiry sweep fails it (T13); running it again would be wasted work.
      if (record.ttlMs !== null && now >= record.createdAt + record.ttlMs) continue;
      // The runner claims the lease atomically: if another worker got there first, nothing runs here.
      this.#runner.resume(record, this.#tools.get(record.toolName));
      adopted.push(record.taskId);
    }
    return adopted;
  }

  /** Scans now, then every `everyMs`. */
  start(): void {
    if (this.#stopTimer !== undefined || this.#everyMs <= 0) return;
    const scan = (): void => {
      this.scan().catch((error: unknown) =>
        console.error('[adoption] could not look for orphaned jobs', error),
      );
    };
    scan();
    this.#stopTimer = every(this.#timers, this.#everyMs, scan);
  }

  stop(): void {
    this.#stopTimer?.();
    this.#stopTimer = undefined;
  }
}
