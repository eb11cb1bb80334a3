/**
 * The page's IndexedDB database: the whole schema, its upgrades, and the
 * store over it. The server worker keeps its tasks in a database of its
 * own (src/server/idb/db.ts); the page only deletes that one, by name.
 */
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import {
  BLOCKED_PROBLEM,
  mergeStoredTask,
  storageProblemOf,
  WIRE_LOG_LIMIT,
  type PageStore,
  type StorageProblem,
  type StoredTask,
  type StoredWireEntry,
} from './page-store.ts';

export const PAGE_DATABASE = 'mcp-tasks-playground-page';
export const PAGE_DB_VERSION = 1;

export interface PageDbSchema extends DBSchema {
  /** Followed tasks by id. */
  tasks: { key: string; value: StoredTask };
  /** The wire log, oldest first (keys only grow). */
  wire: { key: number; value: StoredWireEntry & { id?: number } };
}

type PageDb = IDBPDatabase<PageDbSchema>;

function openPageDb(
  name: string,
  hooks: { onBlocked: () => void; onBlocking: () => void },
): Promise<PageDb> {
  return openDB<PageDbSchema>(name, PAGE_DB_VERSION, {
    upgrade(db, oldVersion) {
      // v1: followed tasks, and the wire log.
      if (oldVersion < 1) {
        db.createObjectStore('tasks', { keyPath: 'taskId' });
        db.createObjectStore('wire', { keyPath: 'id', autoIncrement: true });
      }
    },
    blocked: hooks.onBlocked,
    blocking: hooks.onBlocking,
    terminated: hooks.onBlocking,
  });
}

/**
 * The page's store in IndexedDB. Every write is one transaction, so a
 * failed one (storage full) changes nothing: what was saved stays saved.
 * Failures reject; the caller says what went wrong (`storageProblemOf`).
 */
export class IdbPageStore implements PageStore {
  readonly #name: string;
  readonly #onProblem: (problem: StorageProblem) => void;
  #db: Promise<PageDb> | undefined;

  constructor(name = PAGE_DATABASE, onProblem: (problem: StorageProblem) => void = () => {}) {
    this.#name = name;
    this.#onProblem = onProblem;
  }

  async putTasks(tasks: readonly StoredTask[]): Promise<void> {
    const tx = (await this.#open()).transaction('tasks', 'readwrite');
    await allOrNothing(tx, async () => {
      await Promise.all(
        tasks.map(async (task) =>
          tx.store.put(mergeStoredTask(await tx.store.get(task.taskId), task)),
        ),
      );
    });
  }

  async deleteTasks(taskIds: readonly string[]): Promise<void> {
    const tx = (await this.#open()).transaction('tasks', 'readwrite');
    await allOrNothing(tx, async () => {
      await Promise.all(taskIds.map((id) => tx.store.delete(id)));
    });
  }

  async tasks(): Promise<StoredTask[]> {
    const all = await (await this.#open()).getAll('tasks');
    return all.sort((a, b) => a.followedAt - b.followedAt);
  }

  async appendWire(entries: readonly StoredWireEntry[]): Promise<void> {
    const tx = (await this.#open()).transaction('wire', 'readwrite');
    // The oldest go only if the new ones went in: a full disk loses nothing already kept.
    await allOrNothing(tx, async () => {
      // Requests run in the order made: no need to wait for each add before the next (an await per message).
      await Promise.all(entries.map((entry) => tx.store.add({ ...entry })));
      const excess = (await tx.store.count()) - WIRE_LOG_LIMIT;
      if (excess <= 0) return;
      const oldest = await tx.store.getAllKeys(null, excess);
      const last = oldest.at(-1);
      if (last !== undefined) await tx.store.delete(IDBKeyRange.upperBound(last));
    });
  }

  async wire(): Promise<StoredWireEntry[]> {
    const rows = await (await this.#open()).getAll('wire');
    return rows.map(({ id: _id, ...entry }) => entry);
  }

  async clear(): Promise<void> {
    const tx = (await this.#open()).transaction(['tasks', 'wire'], 'readwrite');
    await allOrNothing(tx, async () => {
      await Promise.all([tx.objectStore('tasks').clear(), tx.objectStore('wire').clear()]);
    });
  }

  #open(): Promise<PageDb> {
    this.#db ??= openPageDb(this.#name, {
      onBlocked: () => this.#onProblem(BLOCKED_PROBLEM),
      // Another tab needs it closed (a newer version): step aside, reopen on the next write.
      onBlocking: () => {
        void this.#db?.then(
          (db) => db.close(),
          () => {},
        );
        this.#db = undefined;
      },
    });
    const opening = this.#db;
    opening.catch((error: unknown) => {
      if (this.#db === opening) this.#db = undefined;
      this.#onProblem(storageProblemOf(error));
    });
    return opening;
  }
}

/** Runs `work` in `tx` and commits it; if any step fails, aborts it so none of it is kept. */
async function allOrNothing(
  tx: { abort(): void; done: Promise<void> },
  work: () => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    try {
      tx.abort();
    } catch {
      // Already finished or aborted by the browser.
    }
    await tx.done.catch(() => {});
    throw error;
  }
  await tx.done;
}

/**
 * Deletes a database by name (the server's, on "Clear everything"). Another
 * tab's worker closes its connection when asked; `onBlocked` says when one
 * does not, and the delete waits for it.
 */
export function deleteDatabase(name: string, onBlocked: () => void): Promise<void> {
  return deleteDB(name, { blocked: onBlocked });
}
