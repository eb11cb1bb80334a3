/**
 * The IndexedDB task store, in Node under fake-indexeddb: the shared
 * contract, upgrading a database left by the previous schema version, and
 * writes made through another connection (another worker) reaching subscribers.
 */
import 'fake-indexeddb/auto';
import { deleteDB, openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVER_DB_VERSION } from '../../../src/server/idb/db.ts';
import { IdbTaskStore } from '../../../src/server/idb/idb-task-store.ts';
import type { TaskRecord } from '../../../src/server/task-store.ts';
import { record, taskStoreContract } from './task-store-contract.ts';

const opened: IdbTaskStore[] = [];
let next = 0;
/** A database name no other test uses: fake-indexeddb keeps every database for the whole process. */
const freshName = (): string => `server-test-${++next}`;

async function openStore(name = freshName()): Promise<IdbTaskStore> {
  const store = await IdbTaskStore.open(name);
  opened.push(store);
  return store;
}

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

taskStoreContract('IdbTaskStore', () => openStore());

describe('IdbTaskStore', () => {
  it('upgrades a database left by schema v1 (tasks by id, no status index) and keeps its tasks', async () => {
    const name = freshName();
    // The previous schema, exactly as v1 created it.
    const v1 = await openDB(name, 1, {
      upgrade: (db) => db.createObjectStore('tasks', { keyPath: 'taskId' }),
    });
    await v1.put('tasks', record('old-working'));
    await v1.put('tasks', record('old-done', { status: 'completed' }));
    v1.close();

    const store = await openStore(name);
    expect(await store.get('old-working')).toEqual(record('old-working'));
    expect((await store.unfinished()).map((r) => r.taskId)).toEqual(['old-working']);
    expect((await store.all()).map((r) => r.taskId).sort()).toEqual(['old-done', 'old-working']);

    const raw = await openDB(name);
    expect(raw.version).toBe(SERVER_DB_VERSION);
    expect([...raw.transaction('tasks').store.indexNames]).toEqual(['by-status']);
    raw.close();
  });

  it('unfinished lists working and input_required tasks only', async () => {
    const store = await openStore();
    await store.create(record('w'));
    await store.create(record('i', { status: 'input_required' }));
    for (const status of ['completed', 'failed', 'cancelled'] as const)
      await store.create(record(status, { status }));
    expect((await store.unfinished()).map((r) => r.taskId).sort()).toEqual(['i', 'w']);
  });

  it("C1, M5: a write through another connection (another worker) reaches this one's subscribers", async () => {
    const name = freshName();
    const mine = await openStore(name);
    const theirs = await openStore(name);
    await mine.create(record('a'));
    const seen = new Promise<TaskRecord>((resolve) => {
      mine.subscribe((r) => {
        if (r.cancelRequested) resolve(r);
      });
    });
    await theirs.update('a', (r) => ({ ...r, cancelRequested: true }));
    expect(await seen).toMatchObject({ taskId: 'a', cancelRequested: true });
  });

  it("another worker's writes to many tasks are read back here together, not one transaction each", async () => {
    const name = freshName();
    const mine = await openStore(name);
    const theirs = await openStore(name);
    const ids = Array.from({ length: 20 }, (_, i) => `t${i}`);
    for (const id of ids) await theirs.create(record(id));
    const seen = new Set<string>();
    let allSeen = (): void => {};
    const done = new Promise<void>((resolve) => (allSeen = resolve));
    mine.subscribe((r) => {
      if (r.lease?.holder === 'runner-2') seen.add(r.taskId);
      if (seen.size === ids.length) allSeen();
    });
    const opened = vi.spyOn(IDBDatabase.prototype, 'transaction');
    try {
      await theirs.updateMany(ids, (r) => ({
        ...r,
        lease: { holder: 'runner-2', expiresAt: 9000 },
      }));
      await done;
      // Their one write, then this worker's reads: the first change starts one, the rest wait and go together.
      expect(opened.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      opened.mockRestore();
    }
  });

  it('an update that throws writes nothing', async () => {
    const store = await openStore();
    await store.create(record('a'));
    await expect(
      store.update('a', () => {
        throw new Error('bad transition');
      }),
    ).rejects.toThrow('bad transition');
    expect(await store.get('a')).toEqual(record('a'));
  });

  it('updates from two connections at once never lose one another', async () => {
    const name = freshName();
    const one = await openStore(name);
    const two = await openStore(name);
    await one.create(record('a', { issuedInputKeys: [] }));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? one : two).update('a', (r) => ({
          ...r,
          issuedInputKeys: [...r.issuedInputKeys, `k${i}`],
        })),
      ),
    );
    expect((await one.get('a'))?.issuedInputKeys).toHaveLength(20);
  });

  it('updateMany changes any number of tasks in one readwrite transaction', async () => {
    const store = await openStore();
    const ids = Array.from({ length: 50 }, (_, i) => `t${i}`);
    for (const id of ids) await store.create(record(id));
    const opened = vi.spyOn(IDBDatabase.prototype, 'transaction');
    try {
      await store.updateMany(ids, (r) => ({
        ...r,
        lease: { holder: 'runner-1', expiresAt: 9000 },
      }));
      expect(opened.mock.calls.map(([, mode]) => mode ?? 'readonly')).toEqual(['readwrite']);
    } finally {
      opened.mockRestore();
    }
    expect((await store.all()).every((r) => r.lease?.expiresAt === 9000)).toBe(true);
  });

  it('updateMany and update from two connections at once never lose one another', async () => {
    const name = freshName();
    const one = await openStore(name);
    const two = await openStore(name);
    for (const id of ['a', 'b']) await one.create(record(id));
    const add = (key: string) => (r: TaskRecord) => ({
      ...r,
      issuedInputKeys: [...r.issuedInputKeys, key],
    });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 ? one.updateMany(['a', 'b'], add(`m${i}`)) : two.update('a', add(`u${i}`)),
      ),
    );
    expect((await one.get('a'))?.issuedInputKeys).toHaveLength(10);
    expect((await two.get('b'))?.issuedInputKeys).toHaveLength(5);
  });

  it('refuses to wait when a tab running an older version holds the database open', async () => {
    const name = freshName();
    // An "older worker" on schema v1 that never closes its connection.
    const older = await openDB(name, 1, {
      upgrade: (db) => db.createObjectStore('tasks', { keyPath: 'taskId' }),
    });
    await expect(IdbTaskStore.open(name)).rejects.toThrow(
      /held open by a tab running an older version/,
    );
    older.close();
  });

  it('steps aside when the page deletes the database ("Clear everything"), then starts afresh', async () => {
    const name = freshName();
    const store = await openStore(name);
    await store.create(record('a'));
    await deleteDB(name);
    expect(await store.all()).toEqual([]);
    await store.create(record('b'));
    expect((await store.all()).map((r) => r.taskId)).toEqual(['b']);
  });
});
