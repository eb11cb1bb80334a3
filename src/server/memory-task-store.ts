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

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.#records.get(taskId);
    return record && structuredClone(record);
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
    // Copies in and out, so no caller can change a stored task behind the store's back.
    const stored = structuredClone(record);
    this.#records.set(record.taskId, stored);
    for (const listener of this.#listeners) listener(structuredClone(stored));
  }
}
