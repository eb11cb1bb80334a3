/**
 * The x-ray's source: a task store that says, beside the MCP wire, what it
 * holds. Every time a task's status changes in the store (its own writes and,
 * on a shared store, other workers'), and when a task leaves it, `tell` hears
 * of it. Only a playground can show this: an MCP client learns a status only
 * from a `tasks/get` reply or a notification, up to `pollIntervalMs` late
 * (T12), and the page draws both so the gap can be seen.
 *
 * Only status changes are told, not every write: a running job's lease is
 * renewed every second, and a page following many tasks must not hear of each.
 */
import type { StoreXrayEvent } from '../protocol/worker-control.ts';
import type { TaskStatus } from '../protocol/task.ts';
import type { TaskRecord, TaskStore, TaskUpdate } from './task-store.ts';

export class XrayTaskStore implements TaskStore {
  readonly #inner: TaskStore;
  readonly #tell: (event: StoreXrayEvent) => void;
  /** The status last told per task, so a write that changes no status tells nothing. */
  readonly #told = new Map<string, TaskStatus>();
  readonly #unsubscribe: () => void;

  constructor(inner: TaskStore, tell: (event: StoreXrayEvent) => void) {
    this.#inner = inner;
    this.#tell = tell;
    this.#unsubscribe = inner.subscribe((record) => this.#saw(record));
  }

  /** Stops telling (the server on this store stopped; the store itself may outlive it). */
  stop(): void {
    this.#unsubscribe();
  }

  /** Tells the status of every task the store holds (a fresh worker on a kept store), told before or not. */
  async tellAll(): Promise<void> {
    this.#told.clear();
    for (const record of await this.#inner.all()) this.#saw(record);
  }

  create(record: TaskRecord): Promise<void> {
    return this.#inner.create(record);
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    return this.#inner.get(taskId);
  }

  update(taskId: string, update: TaskUpdate): Promise<TaskRecord | undefined> {
    return this.#inner.update(taskId, update);
  }

  updateMany(taskIds: readonly string[], update: TaskUpdate): Promise<(TaskRecord | undefined)[]> {
    return this.#inner.updateMany(taskIds, update);
  }

  async delete(taskId: string): Promise<void> {
    await this.#inner.delete(taskId);
    this.#told.delete(taskId);
    this.#tell({ type: 'task-deleted', taskId });
  }

  all(): Promise<TaskRecord[]> {
    return this.#inner.all();
  }

  unfinished(): Promise<TaskRecord[]> {
    return this.#inner.unfinished();
  }

  subscribe(listener: (record: TaskRecord) => void): () => void {
    return this.#inner.subscribe(listener);
  }

  #saw(record: TaskRecord): void {
    if (this.#told.get(record.taskId) === record.status) return;
    this.#told.set(record.taskId, record.status);
    this.#tell({
      type: 'task-stored',
      taskId: record.taskId,
      status: record.status,
      lastUpdatedAt: record.lastUpdatedAt,
    });
  }
}
