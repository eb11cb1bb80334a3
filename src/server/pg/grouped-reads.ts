/**
 * Polls read one task each (`tasks/get`), and a node serving many clients
 * gets many at once. Rather than one PostgreSQL round trip per poll, reads
 * go one query at a time: the ids asked for while a query runs wait, and go
 * together in the next one (`WHERE task_id = ANY($1)`). Each read still sees
 * the store as it was after it was asked for (its query starts after the
 * call), so no poll sees an older state than a plain read would.
 */

interface Waiting {
  resolve(text: string | undefined): void;
  reject(error: unknown): void;
}

export class GroupedReads {
  readonly #waiting = new Map<string, Waiting[]>();
  #reading = false;

  /**
   * @param read fetches the stored text of these ids (missing ones left out), in one query.
   */
  constructor(
    private readonly read: (taskIds: readonly string[]) => Promise<Map<string, string>>,
  ) {}

  /** The stored text of this task, from the next query; undefined when there is none. */
  get(taskId: string): Promise<string | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.#waiting.get(taskId);
      if (waiting) waiting.push({ resolve, reject });
      else this.#waiting.set(taskId, [{ resolve, reject }]);
      if (!this.#reading) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#reading = true;
    try {
      while (this.#waiting.size > 0) {
        const batch = new Map(this.#waiting);
        this.#waiting.clear();
        let found: Map<string, string>;
        try {
          found = await this.read([...batch.keys()]);
        } catch (error) {
          for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
          continue;
        }
        for (const [taskId, waiters] of batch)
          for (const w of waiters) w.resolve(found.get(taskId));
      }
    } finally {
      this.#reading = false;
    }
  }
}
