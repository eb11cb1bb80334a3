/**
 * The page's IndexedDB database: the whole schema, its upgrades, and the
 * store over it. The server worker keeps its tasks in a database of its
 * own (src/server/idb/db.ts); the page only deletes that one, by name.
 */
import {
  deleteDB,
  openDB,
  unwrap,
  type DBSchema,
  type IDBPDatabase,
  type IDBPTransaction,
  type StoreNames,
} from 'idb';
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
import {
  mergeProgress,
  withProgress,
  type ProgressRecord,
  type StoredProgress,
} from './task-progress.ts';

export const PAGE_DATABASE = 'mcp-tasks-playground-page';
export const PAGE_DB_VERSION = 3;

/** The key of the one record in `progress`. */
const EVERY_TASK = 'every task';

/**
 * A batch of wire messages, kept as one record: one `add` per batch instead
 * of one per message. `end` counts the messages ever appended up to and
 * including this chunk, so the keys only grow and the newest key says how
 * many came before the next chunk.
 *
 * Written as one JSON text (`json`): IndexedDB copies a string as it is,
 * where the batch's object graph was walked and cloned object by object,
 * at 1.2 to 1.8 times the main thread's time (this folder's README, "Wire log"). Older
 * chunks (and a batch JSON cannot write) hold `entries`; both are read.
 */
export type StoredWireChunk =
  { end: number; json: string } | { end: number; entries: StoredWireEntry[] };

export interface PageDbSchema extends DBSchema {
  /** Followed tasks by id. */
  tasks: { key: string; value: StoredTask };
  /** Version 1's wire log, one record per message; the v2 upgrade moves it into `wireChunks`. */
  wire: { key: number; value: StoredWireEntry & { id?: number } };
  /** The wire log in chunks, oldest first, keyed by `end`. */
  wireChunks: { key: number; value: StoredWireChunk };
  /** Every task's progress in one record, keyed {@link EVERY_TASK} (`task-progress.ts`). */
  progress: { key: string; value: Map<string, StoredProgress> };
}

type PageDb = IDBPDatabase<PageDbSchema>;
type UpgradeTransaction = IDBPTransaction<
  PageDbSchema,
  StoreNames<PageDbSchema>[],
  'versionchange'
>;

function openPageDb(
  name: string,
  hooks: { onBlocked: () => void; onBlocking: () => void },
): Promise<PageDb> {
  return openDB<PageDbSchema>(name, PAGE_DB_VERSION, {
    upgrade(db, oldVersion, _newVersion, transaction) {
      // v1: followed tasks, and the wire log.
      if (oldVersion < 1) {
        db.createObjectStore('tasks', { keyPath: 'taskId' });
        db.createObjectStore('wire', { keyPath: 'id', autoIncrement: true });
      }
      // v2: the wire log in chunks; what v1 kept becomes the first chunk, in its order.
      if (oldVersion < 2) {
        db.createObjectStore('wireChunks', { keyPath: 'end' });
        void moveWireIntoChunks(db, transaction);
      }
      // v3: every task's progress in one record, written apart from the tasks' own.
      if (oldVersion < 3) db.createObjectStore('progress');
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

  /**
   * One read for the whole batch (the stored records between its lowest and
   * highest id), then a put per task without waiting for each: a read and a
   * promise per task were most of the journal's cost while many tasks poll.
   */
  async putTasks(tasks: readonly StoredTask[]): Promise<void> {
    if (tasks.length === 0) return;
    const tx = (await this.#open()).transaction('tasks', 'readwrite');
    await allOrNothing(tx, async () => {
      const ids = tasks.map((task) => task.taskId).sort();
      const range = IDBKeyRange.bound(ids[0]!, ids.at(-1)!);
      const stored = new Map((await tx.store.getAll(range)).map((task) => [task.taskId, task]));
      // Requests run in the order made; a failed one aborts the transaction, and `done` says why.
      const store = unwrap(tx.store);
      for (const task of tasks) store.put(mergeStoredTask(stored.get(task.taskId), task));
      commit(tx);
    });
  }

  /**
   * A read and a put, however many tasks: the record is read inside the
   * transaction, so another tab writing its own tasks' progress meanwhile
   * waits, and neither loses the other's.
   */
  async putProgress(progress: ProgressRecord): Promise<void> {
    if (progress.size === 0) return;
    const tx = (await this.#open()).transaction('progress', 'readwrite');
    await allOrNothing(tx, async () => {
      const stored = await tx.store.get(EVERY_TASK);
      await tx.store.put(mergeProgress(stored, progress), EVERY_TASK);
    });
  }

  async deleteTasks(taskIds: readonly string[]): Promise<void> {
    const tx = (await this.#open()).transaction(['tasks', 'progress'], 'readwrite');
    await allOrNothing(tx, async () => {
      const tasks = tx.objectStore('tasks');
      const progress = tx.objectStore('progress');
      const stored = await progress.get(EVERY_TASK);
      await Promise.all([
        ...taskIds.map((id) => tasks.delete(id)),
        ...(stored && taskIds.some((id) => stored.has(id))
          ? [progress.put(mergeProgress(stored, new Map(), taskIds), EVERY_TASK)]
          : []),
      ]);
    });
  }

  async tasks(): Promise<StoredTask[]> {
    const tx = (await this.#open()).transaction(['tasks', 'progress'], 'readonly');
    const [all, progress] = await Promise.all([
      tx.objectStore('tasks').getAll(),
      tx.objectStore('progress').get(EVERY_TASK),
    ]);
    return all
      .map((task) => withProgress(task, progress?.get(task.taskId)))
      .sort((a, b) => a.followedAt - b.followedAt);
  }

  /**
   * The batch as one chunk, then the chunks that hold only messages beyond
   * the limit go. Three requests a batch, however many messages it holds;
   * of a batch larger than the limit only its newest are written.
   */
  async appendWire(entries: readonly StoredWireEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const newest = entries.length > WIRE_LOG_LIMIT ? entries.slice(-WIRE_LOG_LIMIT) : entries;
    // Built before the transaction opens: another tab's append waits only for the requests.
    const body = wireChunkBody(newest);
    const tx = (await this.#open()).transaction('wireChunks', 'readwrite');
    // The oldest go only if the new ones went in: a full disk loses nothing already kept.
    await allOrNothing(tx, async () => {
      // Read inside the transaction: another tab appending meanwhile waits for this one.
      const last = await tx.store.openKeyCursor(null, 'prev');
      const end = (last?.key ?? 0) + entries.length;
      const store = unwrap(tx.store);
      store.add({ end, ...body } satisfies StoredWireChunk);
      if (end > WIRE_LOG_LIMIT) store.delete(IDBKeyRange.upperBound(end - WIRE_LOG_LIMIT));
      commit(tx);
    });
  }

  async wire(): Promise<StoredWireEntry[]> {
    const chunks = await (await this.#open()).getAll('wireChunks');
    // The oldest kept chunk may start before the limit: only whole chunks are dropped.
    return chunks.flatMap(wireChunkEntries).slice(-WIRE_LOG_LIMIT);
  }

  async clear(): Promise<void> {
    const stores = ['tasks', 'progress', 'wireChunks'] as const;
    const tx = (await this.#open()).transaction(stores, 'readwrite');
    await allOrNothing(tx, async () => {
      await Promise.all(stores.map((name) => tx.objectStore(name).clear()));
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

/**
 * v1 kept one record per wire message: they become one chunk, oldest first
 * (the last {@link WIRE_LOG_LIMIT} of them), and the v1 store goes. Inside
 * the upgrade's transaction, so a failure leaves the database at v1 whole.
 */
async function moveWireIntoChunks(db: PageDb, transaction: UpgradeTransaction): Promise<void> {
  if (!db.objectStoreNames.contains('wire')) return;
  const rows = await transaction.objectStore('wire').getAll();
  const entries = rows.map(({ id: _id, ...entry }) => entry).slice(-WIRE_LOG_LIMIT);
  if (entries.length > 0)
    await transaction.objectStore('wireChunks').add({ end: entries.length, entries });
  db.deleteObjectStore('wire');
}

/**
 * A chunk's content: its messages as one JSON text. A wire message is JSON
 * (what crossed a port or an HTTP body as JSON-RPC), and what the wire log
 * draws of it is its JSON; a value JSON cannot write (a BigInt) keeps the
 * batch as objects, so nothing is lost to the form.
 */
function wireChunkBody(
  entries: readonly StoredWireEntry[],
): { json: string } | { entries: StoredWireEntry[] } {
  try {
    return { json: JSON.stringify(entries) };
  } catch {
    return { entries: [...entries] };
  }
}

function wireChunkEntries(chunk: StoredWireChunk): StoredWireEntry[] {
  return 'json' in chunk ? (JSON.parse(chunk.json) as StoredWireEntry[]) : chunk.entries;
}

/** Asks the browser to commit now rather than once this task ends (where it can: not every engine has `commit`). */
function commit(tx: { commit?: () => void }): void {
  tx.commit?.();
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
