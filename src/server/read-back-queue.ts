/**
 * Reads back tasks another worker or node changed, for a shared store's
 * `subscribe`. Ids that arrive while a read is under way wait and are read
 * together in the next one: a peer writing a hundred tasks a second would
 * otherwise cost a hundred reads here. One read at a time, in arrival order.
 */
import type { TaskRecord } from './task-store.ts';

export class ReadBackQueue {
  readonly #waiting = new Set<string>();
  #reading = false;

  /**
   * @param read fetches the current records of these ids (missing ones left out); a failed
   *   read drops its ids, since the next change of the same task is announced again.
   * @param announce tells the store's listeners about one record read back.
   */
  constructor(
    private readonly read: (taskIds: readonly string[]) => Promise<readonly TaskRecord[]>,
    private readonly announce: (record: TaskRecord) => void,
  ) {}

  /** Queues these ids for reading back; starts a read unless one is under way. */
  add(taskIds: Iterable<string>): void {
    for (const taskId of taskIds) this.#waiting.add(taskId);
    if (this.#reading) return;
    this.#reading = true;
    void (async () => {
      try {
        while (this.#waiting.size > 0) {
          const batch = [...this.#waiting];
          this.#waiting.clear();
          const records = await this.read(batch).catch(() => []);
          for (const record of records) this.announce(record);
        }
      } finally {
        this.#reading = false;
      }
    })();
  }
}
