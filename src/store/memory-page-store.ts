/** The in-memory twin of the page's IndexedDB store: for unit tests, and for a browser whose storage cannot be opened. */
import {
  mergeStoredTask,
  WIRE_LOG_LIMIT,
  type PageStore,
  type StoredTask,
  type StoredWireEntry,
} from './page-store.ts';

export class MemoryPageStore implements PageStore {
  readonly #tasks = new Map<string, StoredTask>();
  #wire: StoredWireEntry[] = [];

  async putTasks(tasks: readonly StoredTask[]): Promise<void> {
    for (const task of tasks)
      this.#tasks.set(
        task.taskId,
        structuredClone(mergeStoredTask(this.#tasks.get(task.taskId), task)),
      );
  }

  async deleteTasks(taskIds: readonly string[]): Promise<void> {
    for (const id of taskIds) this.#tasks.delete(id);
  }

  async tasks(): Promise<StoredTask[]> {
    return [...this.#tasks.values()]
      .sort((a, b) => a.followedAt - b.followedAt)
      .map((t) => structuredClone(t));
  }

  async appendWire(entries: readonly StoredWireEntry[]): Promise<void> {
    // Appended in place, trimmed only once twice the limit is held: a batch costs its own size,
    // not a copy of the whole log (the page's path under load appends a batch every 250 ms).
    for (const entry of structuredClone(entries)) this.#wire.push(entry);
    if (this.#wire.length > 2 * WIRE_LOG_LIMIT) this.#wire = this.#wire.slice(-WIRE_LOG_LIMIT);
  }

  async wire(): Promise<StoredWireEntry[]> {
    return structuredClone(this.#wire.slice(-WIRE_LOG_LIMIT));
  }

  async clear(): Promise<void> {
    this.#tasks.clear();
    this.#wire = [];
  }
}
