/** The in-memory twin of the page's IndexedDB store: for unit tests, and for a browser whose storage cannot be opened. */
import {
  mergeStoredTask,
  WIRE_LOG_LIMIT,
  type PageStore,
  type StoredTask,
  type StoredWireEntry,
} from './page-store.ts';
import {
  mergeProgress,
  withProgress,
  type ProgressRecord,
  type StoredProgress,
} from './task-progress.ts';

export class MemoryPageStore implements PageStore {
  readonly #tasks = new Map<string, StoredTask>();
  #progress = new Map<string, StoredProgress>();
  #wire: StoredWireEntry[] = [];

  async putTasks(tasks: readonly StoredTask[]): Promise<void> {
    for (const task of tasks)
      this.#tasks.set(
        task.taskId,
        structuredClone(mergeStoredTask(this.#tasks.get(task.taskId), task)),
      );
  }

  /** Copied, as IndexedDB would: the journal's reports stay the actors' own. */
  async putProgress(progress: ProgressRecord): Promise<void> {
    this.#progress = mergeProgress(this.#progress, structuredClone(new Map(progress)));
  }

  async deleteTasks(taskIds: readonly string[]): Promise<void> {
    for (const id of taskIds) this.#tasks.delete(id);
    this.#progress = mergeProgress(this.#progress, new Map(), taskIds);
  }

  async tasks(): Promise<StoredTask[]> {
    return [...this.#tasks.values()]
      .sort((a, b) => a.followedAt - b.followedAt)
      .map((t) => structuredClone(withProgress(t, this.#progress.get(t.taskId))));
  }

  /**
   * Kept as given, not copied: a wire message is immutable once sent (its
   * verdict is cached per object), and the journal builds each entry fresh.
   * Appended in place, trimmed only once twice the limit is held: a batch
   * costs its own size, not a copy of the whole log.
   */
  async appendWire(entries: readonly StoredWireEntry[]): Promise<void> {
    for (const entry of entries) this.#wire.push(entry);
    if (this.#wire.length > 2 * WIRE_LOG_LIMIT) this.#wire = this.#wire.slice(-WIRE_LOG_LIMIT);
  }

  /** Fresh entry objects over the same messages, as a read from IndexedDB gives objects of its own. */
  async wire(): Promise<StoredWireEntry[]> {
    return this.#wire.slice(-WIRE_LOG_LIMIT).map((entry) => ({ ...entry }));
  }

  async clear(): Promise<void> {
    this.#tasks.clear();
    this.#progress.clear();
    this.#wire = [];
  }
}
