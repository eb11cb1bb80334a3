/**
 * The x-ray over time: each task's readings of the server's store, with the
 * time the page heard each, so a past history step can show what the store
 * held at that moment. A reading holds until the next one; before the first
 * one recorded for a task (the page had not started watching it) the store
 * at that moment is not known, and `readingAt` says so (`undefined`).
 *
 * Plain TypeScript, tested in Node (`tests/unit/ui/xray-history.test.ts`).
 */
import type { ServerXray, StoredTaskReading } from '../../session/server-xray.ts';

/** What the history reads of the page session: the x-ray, and its `xray` events. */
export interface XraySource {
  readonly xray: Pick<ServerXray, 'reading'>;
  on(event: 'xray', listener: (event: { taskId: string | undefined }) => void): unknown;
}

type Reading = { at: number; reading: StoredTaskReading };

const same = (a: StoredTaskReading, b: StoredTaskReading): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

export class XrayHistory {
  readonly #session: XraySource;
  readonly #now: () => number;
  readonly #limit: number;
  readonly #readings = new Map<string, Reading[]>();

  /**
   * Records from now on every task it is told to `track`, as the session's
   * `xray` events say a reading changed. `now`: the clock history steps are
   * timed by (epoch ms): the page's world clock, so a reading heard while the
   * world is paused carries the paused moment, as a step taken then does; `limit`: readings kept per task (the oldest go).
   */
  constructor(session: XraySource, now: () => number = Date.now, limit = 100) {
    this.#session = session;
    this.#now = now;
    this.#limit = limit;
    session.on('xray', ({ taskId }) => {
      for (const id of taskId === undefined ? [...this.#readings.keys()] : [taskId])
        if (this.#readings.has(id)) this.#record(id);
    });
  }

  /** Starts recording `taskId` (its reading now is the first); a task already tracked is left as is. */
  track(taskId: string): void {
    if (this.#readings.has(taskId)) return;
    this.#readings.set(taskId, []);
    this.#record(taskId);
  }

  /** Stops recording `taskId` and forgets its readings. */
  untrack(taskId: string): void {
    this.#readings.delete(taskId);
  }

  /** What the store held for `taskId` at `at`, or `undefined` when the page does not know. */
  readingAt(taskId: string, at: number): StoredTaskReading | undefined {
    return this.#readings.get(taskId)?.findLast((r) => r.at <= at)?.reading;
  }

  #record(taskId: string): void {
    const list = this.#readings.get(taskId)!;
    const reading = this.#session.xray.reading(taskId);
    const last = list.at(-1);
    if (last && same(last.reading, reading)) return;
    list.push({ at: this.#now(), reading });
    if (list.length > this.#limit) list.splice(0, list.length - this.#limit);
  }
}
