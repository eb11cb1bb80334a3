/**
 * The page database's upgrades, under fake-indexeddb: from version 1 (one
 * record per wire message) to version 2 (the wire log in chunks), and from
 * version 2 to version 3 (every task's progress in one record of its own):
 * a page that loads the new code keeps everything the old one stored, in
 * its order.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IdbPageStore, PAGE_DB_VERSION } from '../../../src/store/db.ts';
import { WIRE_LOG_LIMIT, type StoredWireEntry } from '../../../src/store/page-store.ts';
import { storedTask } from '../helpers/stored-task.ts';
import type { StoredProgress } from '../../../src/store/task-progress.ts';

let names = 0;

/** A database as version 1 of the page left it, written with the raw IndexedDB API (as that code did). */
function versionOneDatabase(name: string, wire: StoredWireEntry[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore('tasks', { keyPath: 'taskId' });
      open.result.createObjectStore('wire', { keyPath: 'id', autoIncrement: true });
    };
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(['tasks', 'wire'], 'readwrite');
      tx.objectStore('tasks').put(storedTask('kept', { answeredKeys: ['confirm'], polls: 4 }));
      for (const entry of wire) tx.objectStore('wire').add(entry);
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}

const message = (i: number): StoredWireEntry => ({
  at: i,
  direction: i % 2 ? 'in' : 'out',
  message: { jsonrpc: '2.0', id: i },
});

describe('the page database, upgraded from version 1', () => {
  it('T12: keeps the followed tasks and the wire log, in order, and appends after it', async () => {
    const name = `page-upgrade-${++names}`;
    const old = Array.from({ length: 40 }, (_, i) => message(i));
    await versionOneDatabase(name, old);

    const store = new IdbPageStore(name);
    expect(await store.tasks()).toEqual([
      storedTask('kept', { answeredKeys: ['confirm'], polls: 4 }),
    ]);
    expect(await store.wire()).toEqual(old);

    await store.appendWire([message(40), message(41)]);
    expect((await store.wire()).map((e) => e.at)).toEqual(Array.from({ length: 42 }, (_, i) => i));
  });

  it(`keeps at most the last ${WIRE_LOG_LIMIT} of an old log, and moves no more than that`, async () => {
    const name = `page-upgrade-${++names}`;
    const old = Array.from({ length: WIRE_LOG_LIMIT + 3 }, (_, i) => message(i));
    await versionOneDatabase(name, old);
    const store = new IdbPageStore(name);
    const kept = await store.wire();
    expect(kept).toHaveLength(WIRE_LOG_LIMIT);
    expect(kept[0]).toEqual(message(3));
    await store.appendWire([message(WIRE_LOG_LIMIT + 3)]);
    expect((await store.wire()).at(-1)).toEqual(message(WIRE_LOG_LIMIT + 3));
    expect(await store.wire()).toHaveLength(WIRE_LOG_LIMIT);
  });

  it('leaves no version 1 store behind, and an empty old log upgrades to an empty one', async () => {
    const name = `page-upgrade-${++names}`;
    await versionOneDatabase(name, []);
    const store = new IdbPageStore(name);
    expect(await store.wire()).toEqual([]);
    const opened = await new Promise<{ version: number; stores: string[] }>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        resolve({ version: open.result.version, stores: [...open.result.objectStoreNames] });
        open.result.close();
      };
    });
    expect(opened.version).toBe(PAGE_DB_VERSION);
    expect(opened.stores.sort()).toEqual(['progress', 'tasks', 'wireChunks']);
  });
});

/** A database as version 2 of the page left it: tasks, and the wire log in chunks. */
function versionTwoDatabase(name: string, wire: StoredWireEntry[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name, 2);
    open.onupgradeneeded = () => {
      open.result.createObjectStore('tasks', { keyPath: 'taskId' });
      open.result.createObjectStore('wireChunks', { keyPath: 'end' });
    };
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(['tasks', 'wireChunks'], 'readwrite');
      tx.objectStore('tasks').put(storedTask('kept', { polls: 4, nextPollAt: 900 }));
      tx.objectStore('tasks').put(storedTask('ended', { outcome: 'completed', followedAt: 2 }));
      tx.objectStore('wireChunks').add({ end: wire.length, entries: wire });
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}

describe('the page database, upgraded from version 2', () => {
  it("T12: an old database's tasks still restore as they were, and its wire log is kept", async () => {
    const name = `page-upgrade-${++names}`;
    const old = Array.from({ length: 5 }, (_, i) => message(i));
    await versionTwoDatabase(name, old);
    const store = new IdbPageStore(name);
    expect(await store.tasks()).toEqual([
      storedTask('kept', { polls: 4, nextPollAt: 900 }),
      storedTask('ended', { outcome: 'completed', followedAt: 2 }),
    ]);
    expect(await store.wire()).toEqual(old);
  });

  it('T12: the first progress written after the upgrade is laid over an old task, which has no revision', async () => {
    const name = `page-upgrade-${++names}`;
    await versionTwoDatabase(name, [message(0)]);
    const store = new IdbPageStore(name);
    const progress: StoredProgress = {
      revision: 1,
      polls: 6,
      nextPollAt: 1400,
      task: storedTask('kept').task,
    };
    await store.putProgress(new Map([['kept', progress]]));
    expect((await store.tasks())[0]).toMatchObject({ taskId: 'kept', polls: 6, nextPollAt: 1400 });
    const opened = await new Promise<number>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        resolve(open.result.version);
        open.result.close();
      };
    });
    expect(opened).toBe(3);
  });
});
