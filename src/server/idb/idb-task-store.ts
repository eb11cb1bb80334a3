/**
 * A task store in IndexedDB: outlives the worker, and is shared by every
 * worker of the origin that opens the same database (other tabs, a
 * restarted worker). Writes made by another worker reach this one's
 * subscribers through a BroadcastChannel, so a `tasks/cancel` or an answer
 * served by one worker reaches a job running in another (C1, M5).
 */
import { z } from 'zod';
import { isTerminal } from '../../protocol/task.ts';
import { assertDistinct, type TaskRecord, type TaskStore, type TaskUpdate } from '../task-store.ts';
import { openServerDb, type ServerDb } from './db.ts';
import { ReadBackQueue } from '../read-back-queue.ts';

/** What goes on the channel: only which task changed; receivers read it back from the database. */
const ChangeSchema = z.object({ taskId: z.string().min(1) });

export class IdbTaskStore implements TaskStore {
  readonly #name: string;
  readonly #listeners = new Set<(record: TaskRecord) => void>();
  readonly #channel: BroadcastChannel;
  /** Tasks another worker changed that are still to be read back and announced here. */
  /** Other workers' changes, read back together (one read at a time, not one per changed task). */
  readonly #readBack = new ReadBackQueue(
    async (taskIds) =>
      (await this.#getMany(taskIds)).filter((record): record is TaskRecord => record !== undefined),
    (record) => this.#notify(record),
  );
  #db: Promise<ServerDb> | undefined;
  #closed = false;
  #onBlocked: () => void = () => {};

  private constructor(name: string) {
    this.#name = name;
    this.#channel = new BroadcastChannel(`mcp-tasks-playground:${name}`);
    this.#channel.addEventListener('message', (event: MessageEvent<unknown>) => {
      const change = ChangeSchema.safeParse(event.data);
      if (change.success) this.#readBack.add([change.data.taskId]);
    });
  }

  /**
   * Opens the database called `name` (creating or upgrading it) and resolves
   * once it is usable. Rejects rather than wait when a tab running an older
   * version keeps the database open.
   */
  static async open(name: string): Promise<IdbTaskStore> {
    const store = new IdbTaskStore(name);
    const blocked = new Promise<never>((_, reject) => {
      store.#onBlocked = () =>
        reject(
          new Error(
            `the database ${name} is held open by a tab running an older version of the playground`,
          ),
        );
    });
    try {
      await Promise.race([store.#open(), blocked]);
    } catch (error) {
      store.close();
      throw error;
    }
    return store;
  }

  async create(record: TaskRecord): Promise<void> {
    const db = await this.#open();
    // add, not put: a second create of one id is a ConstraintError.
    await db.add('tasks', record);
    this.#changed(record);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return (await this.#open()).get('tasks', taskId);
  }

  async update(taskId: string, update: TaskUpdate): Promise<TaskRecord | undefined> {
    const db = await this.#open();
    // One readwrite transaction: IndexedDB runs overlapping ones on this store one
    // after another, across workers too, so no other write comes between get and put.
    const tx = db.transaction('tasks', 'readwrite');
    const current = await tx.store.get(taskId);
    if (!current) {
      await tx.done;
      return undefined;
    }
    let next: TaskRecord;
    try {
      next = update(current);
    } catch (error) {
      tx.abort();
      await tx.done.catch(() => {});
      throw error;
    }
    await tx.store.put(next);
    await tx.done;
    this.#changed(next);
    return structuredClone(next);
  }

  async updateMany(
    taskIds: readonly string[],
    update: TaskUpdate,
  ): Promise<(TaskRecord | undefined)[]> {
    assertDistinct(taskIds);
    if (taskIds.length === 0) return [];
    const db = await this.#open();
    // One readwrite transaction for them all, like update's: a runner renewing a hundred
    // leases costs one transaction, not a hundred queued one after another.
    const tx = db.transaction('tasks', 'readwrite');
    const current = await Promise.all(taskIds.map((taskId) => tx.store.get(taskId)));
    let next: (TaskRecord | undefined)[];
    try {
      next = current.map((record) => record && update(record));
    } catch (error) {
      tx.abort();
      await tx.done.catch(() => {});
      throw error;
    }
    const stored = next.filter((record) => record !== undefined);
    await Promise.all([...stored.map((record) => tx.store.put(record)), tx.done]);
    for (const record of stored) this.#changed(record);
    return next.map((record) => record && structuredClone(record));
  }

  async delete(taskId: string): Promise<void> {
    await (await this.#open()).delete('tasks', taskId);
  }

  async all(): Promise<TaskRecord[]> {
    return (await this.#open()).getAll('tasks');
  }

  async unfinished(): Promise<TaskRecord[]> {
    const db = await this.#open();
    const [working, input] = await Promise.all([
      db.getAllFromIndex('tasks', 'by-status', 'working'),
      db.getAllFromIndex('tasks', 'by-status', 'input_required'),
    ]);
    return [...working, ...input].filter((r) => !isTerminal(r.status));
  }

  subscribe(listener: (record: TaskRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Closes the database and the channel. */
  close(): void {
    this.#closed = true;
    this.#channel.close();
    void this.#db?.then(
      (db) => db.close(),
      () => {},
    );
    this.#db = undefined;
  }

  #open(): Promise<ServerDb> {
    if (this.#closed) return Promise.reject(new Error('task store is closed'));
    this.#db ??= openServerDb(this.#name, {
      onBlocked: () => this.#onBlocked(),
      // Someone needs the database gone or upgraded (the page's "Clear everything",
      // a newer worker): step aside, and open it afresh on the next use.
      onBlocking: () => {
        void this.#db?.then(
          (db) => db.close(),
          () => {},
        );
        this.#db = undefined;
      },
    });
    const opening = this.#db;
    opening.catch(() => {
      if (this.#db === opening) this.#db = undefined;
    });
    return opening;
  }

  #changed(record: TaskRecord): void {
    this.#notify(record);
    this.#channel.postMessage({ taskId: record.taskId });
  }

  async #getMany(taskIds: readonly string[]): Promise<(TaskRecord | undefined)[]> {
    const tx = (await this.#open()).transaction('tasks');
    const [records] = await Promise.all([
      Promise.all(taskIds.map((taskId) => tx.store.get(taskId))),
      tx.done,
    ]);
    return records;
  }

  #notify(record: TaskRecord): void {
    // A copy each, so no listener can change what another one sees.
    for (const listener of this.#listeners) listener(structuredClone(record));
  }
}
