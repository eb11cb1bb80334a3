/**
 * A task store in one JavaScript realm's memory. Lost with its worker or
 * process: the playground uses that loss to show why tasks need shared,
 * durable storage.
 */
import { isTerminal } from '../protocol/task.ts';
import { assertDistinct, type TaskRecord, type TaskStore, type TaskUpdate } from './task-store.ts';

export class MemoryTaskStore implements TaskStore {
  readonly #records = new Map<string, TaskRecord>();
  readonly #listeners = new Set<(record: TaskRecord) => void>();

  async create(record: TaskRecord): Promise<void> {
    if (this.#records.has(record.taskId)) throw new Error(`task ${record.taskId} already exists`);
    this.#put(record);
  }

  /**
   * The stored record itself, frozen through and through (see {@link #put}):
   * every poll reads one, and a copy per read was a tenth of the worker's
   * time. Changing it throws, so it is as safe as a copy.
   */
  async get(taskId: string): Promise<TaskRecord | undefined> {
    return this.#records.get(taskId);
  }

  async update(taskId: string, update: TaskUpdate): Promise<TaskRecord | undefined> {
    const current = this.#records.get(taskId);
    if (!current) return undefined;
    const next = update(structuredClone(current));
    this.#put(next);
    return structuredClone(next);
  }

  async updateMany(
    taskIds: readonly string[],
    update: TaskUpdate,
  ): Promise<(TaskRecord | undefined)[]> {
    assertDistinct(taskIds);
    // Every change is worked out before any is stored, so one that throws leaves all the tasks as they were.
    const next = taskIds.map((taskId) => {
      const current = this.#records.get(taskId);
      return current && update(structuredClone(current));
    });
    for (const record of next) if (record) this.#put(record);
    return next.map((record) => record && structuredClone(record));
  }

  async delete(taskId: string): Promise<void> {
    this.#records.delete(taskId);
  }

  async all(): Promise<TaskRecord[]> {
    return [...this.#records.values()].map((r) => structuredClone(r));
  }

  async unfinished(): Promise<TaskRecord[]> {
    return (await this.all()).filter((r) => !isTerminal(r.status));
  }

  subscribe(listener: (record: TaskRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #put(record: TaskRecord): void {
    // Copied in and frozen, so no caller can change a stored task behind the store's back:
    // not the writer (it keeps its own object), nor a reader (`get` hands out this one).
    const stored = deepFreeze(structuredClone(record));
    this.#records.set(record.taskId, stored);
    for (const listener of this.#listeners) listener(structuredClone(stored));
  }
}

/** Freezes `value` and everything it holds (a record is plain data: objects and arrays). */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
