/**
 * The time tool jobs wait on. It runs like a wall clock, except that the
 * playground can hold it: while held, every job's `sleep` stands still and
 * takes up where it left off on release. The "predict the next state" drill
 * holds it while the learner thinks, so the task they are asked about is
 * still where the question says it is when they answer; a job is held only
 * between its own steps, so everything else (polls, heartbeats, TTLs, store
 * writes) goes on as usual. This is a playground control, not protocol.
 * Its time comes from `Timers`: in the worker the world clock, so pausing
 * the world holds every job's sleep too.
 */
import { realTimers, type Timers } from '../clock/timers.ts';
import { JobCancelled } from './tool.ts';

interface Sleeper {
  /** Ms still to wait, counted while the clock runs. */
  remaining: number;
  /** When the current stretch of running began. */
  since: number;
  timer: unknown;
  wake(): void;
}

export class JobClock {
  readonly #timers: Timers;
  readonly #sleepers = new Set<Sleeper>();
  #held = false;

  constructor(timers: Timers = realTimers) {
    this.#timers = timers;
  }

  get held(): boolean {
    return this.#held;
  }

  /** Stops every sleeping job where it is; jobs that start sleeping meanwhile wait too. */
  hold(): void {
    if (this.#held) return;
    this.#held = true;
    const now = this.#timers.now();
    for (const sleeper of this.#sleepers) {
      this.#timers.clearTimeout(sleeper.timer);
      sleeper.timer = undefined;
      sleeper.remaining = Math.max(0, sleeper.remaining - (now - sleeper.since));
    }
  }

  /** Lets every held job carry on with the time it had left. */
  release(): void {
    if (!this.#held) return;
    this.#held = false;
    for (const sleeper of this.#sleepers) this.#run(sleeper);
  }

  /** Waits `ms` of running time; with a signal, rejects with JobCancelled as soon as it aborts (held or not). */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new JobCancelled());
      const onAbort = (): void => {
        this.#timers.clearTimeout(sleeper.timer);
        this.#sleepers.delete(sleeper);
        reject(new JobCancelled());
      };
      const sleeper: Sleeper = {
        remaining: ms,
        since: this.#timers.now(),
        timer: undefined,
        wake: () => {
          this.#sleepers.delete(sleeper);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.#sleepers.add(sleeper);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (!this.#held) this.#run(sleeper);
    });
  }

  #run(sleeper: Sleeper): void {
    sleeper.since = this.#timers.now();
    sleeper.timer = this.#timers.setTimeout(sleeper.wake, sleeper.remaining);
  }
}
