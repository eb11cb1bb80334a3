/**
 * The server's IndexedDB database: the whole schema, and its upgrades.
 * It is the worker's own database (the page keeps its own, src/store/db.ts);
 * the page only chooses its name and may delete it ("Clear everything").
 *
 * Each upgrade step runs once, in order, so a database left by an older
 * worker and a new one end up with the same layout.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { TaskStatus } from '../../protocol/task.ts';
import type { TaskRecord } from '../task-store.ts';

export const SERVER_DB_VERSION = 2;

export interface ServerDbSchema extends DBSchema {
  /** One record per task, keyed by its id. */
  tasks: {
    key: string;
    value: TaskRecord;
    indexes: { 'by-status': TaskStatus };
  };
}

export type ServerDb = IDBPDatabase<ServerDbSchema>;

export interface OpenServerDbHooks {
  /** Another connection (an older worker, or a page deleting the database) needs this one closed. */
  onBlocking?: () => void;
  /** This open waits for connections of an older version to close. */
  onBlocked?: () => void;
}

/** Opens (creating or upgrading) the server's database called `name`. */
export function openServerDb(name: string, hooks: OpenServerDbHooks = {}): Promise<ServerDb> {
  return openDB<ServerDbSchema>(name, SERVER_DB_VERSION, {
    upgrade(db, oldVersion, _newVersion, transaction) {
      // v1: tasks by id.
      if (oldVersion < 1) db.createObjectStore('tasks', { keyPath: 'taskId' });
      // v2: find the unfinished tasks a fresh worker resumes without reading every finished one.
      if (oldVersion < 2) transaction.objectStore('tasks').createIndex('by-status', 'status');
    },
    blocked: () => hooks.onBlocked?.(),
    blocking: () => hooks.onBlocking?.(),
    terminated: () => hooks.onBlocking?.(),
  });
}
