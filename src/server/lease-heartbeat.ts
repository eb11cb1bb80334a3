/**
 * The heartbeat of a job runner: one timer renews every lease the runner
 * holds, in one store write, and abandons a job whose lease is gone. The
 * timer runs only while a lease is held, so an idle runner keeps none.
 */
import { every, realTimers, type Timers } from '../clock/timers.ts';
import { claimLease, holdsLease } from './task-durability.ts';
import type { TaskStore, TaskUpdate } from './task-store.ts';

/** What the heartbeat needs of its runner. */
export interface LeaseHeartbeatOptions {
  store: TaskStore;
  /** The runner's id, as its leases name it. */
  holder: string;
  now: () => number;
  leaseMs: number;
  heartbeatMs: number;
  /** Whether the runner stopped: a stopped runner renews nothing, even with a renewal under way. */
  isStopped: () => boolean;
  /** The heartbeat's timer (the world clock in the worker, so a paused world renews nothing). */
  timers?: Timers;
}

/** The leases one runner holds, each with how to abandon its job, and the timer that renews them. */
export class LeaseHeartbeat {
  readonly #options: LeaseHeartbeatOptions;
  /** The jobs running under their task's lease, each with how to stop it without writing anything more. */
  readonly #held = new Map<string, () => void>();
  #stopTimerNow: (() => void) | undefined;
  /** The renewal being stored, and whether a heartbeat came meanwhile. */
  #renewal: Promise<void> | undefined;
  #renewAgain = false;

  constructor(options: LeaseHeartbeatOptions) {
    this.#options = options;
  }

  /** Renews `taskId`'s lease from now on, until released; `abandon` is called if the lease is lost. */
  hold(taskId: string, abandon: () => void): void {
    this.#held.set(taskId, abandon);
    this.#stopTimerNow ??= every(
      this.#options.timers ?? realTimers,
      this.#options.heartbeatMs,
      () => this.#renewLeases(),
    );
  }

  /**
   * Stops renewing `taskId`'s lease, if it is still `abandon`'s: a late renewal may abandon a
   * run after the same task started again here, and must not release the new run's lease.
   */
  release(taskId: string, abandon: () => void): void {
    if (this.#held.get(taskId) === abandon) this.#held.delete(taskId);
  }

  /** {@link release}, and stops the timer when that was the last lease held. */
  end(taskId: string, abandon: () => void): void {
    this.release(taskId, abandon);
    if (this.#held.size === 0) this.#stopTimer();
  }

  /** Abandons every job held (each releases its lease) and stops the timer. */
  abandonAll(): void {
    for (const abandon of [...this.#held.values()]) abandon();
    this.#stopTimer();
  }

  #stopTimer(): void {
    this.#stopTimerNow?.();
    this.#stopTimerNow = undefined;
  }

  /**
   * Renews every lease held here in one store write, a transaction of its own: it does not
   * queue behind the jobs' batched writes, where it would wait for the batch being stored and
   * then for its own. With two tabs under load, renewals that late let the other tab's worker
   * take live jobs over. A job whose renewal finds the lease gone (another runner took it, or
   * the task was deleted) is abandoned, as is every job when the write fails.
   */
  #renewLeases(): void {
    // One renewal at a time: a heartbeat that comes meanwhile renews the moment it is stored, so
    // a slow write costs the next renewal no more than its own lateness.
    if (this.#renewal) {
      this.#renewAgain = true;
      return;
    }
    const held = [...this.#held];
    if (held.length === 0) return;
    const { store, holder, now, leaseMs, isStopped } = this.#options;
    // The new expiry is reckoned when the write is stored, however long it waited for its turn.
    const renew: TaskUpdate = (r) =>
      !isStopped() && holdsLease(r, holder) ? claimLease(r, holder, now(), leaseMs) : r;
    this.#renewal = store
      .updateMany(
        held.map(([taskId]) => taskId),
        renew,
      )
      .then(
        (records) => records.forEach((record, i) => holdsLease(record, holder) || held[i]![1]()),
        () => held.forEach(([, abandon]) => abandon()),
      )
      .finally(() => {
        this.#renewal = undefined;
        if (!this.#renewAgain) return;
        this.#renewAgain = false;
        this.#renewLeases();
      });
  }
}
