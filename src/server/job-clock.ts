/**
 * The time tool jobs wait on. It runs like a wall clock, except that the
 * playground can hold it: while held, every job's `sleep` stands still and
 * takes up where it left off on release. The "predict the next state" drill
 * holds it while the learner thinks, so the task they are asked about is
 * still where the question says it is when they answer; a job is held only
 * between its own steps, so everything else (polls, heartbeats, TTLs, store
 * writes) goes on as usual. This is a playground control, not protocol.
 */
import { JobCancelled } from './tool.ts';

interface Sleeper {
  /** Ms still to wait, counted while the clock runs. */
  remaining: number;
  /** When the current stretch of running began. */
  since: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  wake(): void;
}

export class JobClock {
  readonly #now: () => number;
  readonly #sleepers = new Set<Sleeper>();
  #held = false;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  get held(): boolean {
    return this.#held;
  }

  /** Stops every sleeping job where it is; jobs that start sleeping meanwhile wait too. */
  hold(): void {
    if (this.#held) return;
    this.#held = true;
    const now = this.#now();
    for (const sleeper of this.#sleepers) {
      clearTimeout(sleeper.timer);
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
        clearTimeout(sleeper.timer);
        this.#sleepers.delete(sleeper);
        reject(new JobCancelled());
      };
      const sleeper: Sleeper = {
        remaining: ms,
        since: this.#now(),
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
    sleeper.since = this.#now();
    sleeper.timer = setTimeout(sleeper.wake, sleeper.remaining);
  }
}
