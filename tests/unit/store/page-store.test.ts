/**
 * The page's store, both implementations against one suite (IndexedDB
 * under fake-indexeddb), plus what only IndexedDB can do wrong: a full disk.
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { IdbPageStore } from '../../../src/store/db.ts';
import { MemoryPageStore } from '../../../src/store/memory-page-store.ts';
import { mergeStoredTask, WIRE_LOG_LIMIT, type PageStore } from '../../../src/store/page-store.ts';
import { storedTask } from '../helpers/stored-task.ts';

let names = 0;
function pageStoreContract(name: string, make: () => PageStore): void {
  describe(`${name} keeps the page's facts`, () => {
    it('T12: stores followed tasks and lists them oldest followed first', async () => {
      const store = make();
      await store.putTasks([
        storedTask('b', { followedAt: 2 }),
        storedTask('a', { followedAt: 1 }),
      ]);
      expect((await store.tasks()).map((t) => t.taskId)).toEqual(['a', 'b']);
      await store.deleteTasks(['a']);
      expect((await store.tasks()).map((t) => t.taskId)).toEqual(['b']);
    });

    it('T14: a write from another tab cannot take back an answered key or a cancel intent', async () => {
      const store = make();
      await store.putTasks([storedTask('a', { answeredKeys: ['confirm'], cancelRequested: true })]);
      await store.putTasks([storedTask('a', { answeredKeys: [], polls: 9 })]);
      expect(await store.tasks()).toEqual([
        storedTask('a', { answeredKeys: ['confirm'], cancelRequested: true, polls: 9 }),
      ]);
    });

    it('T14: a batch merges each of its tasks with what is stored, and leaves the others alone', async () => {
      const store = make();
      await store.putTasks([
        storedTask('a', { answeredKeys: ['confirm'] }),
        storedTask('b', { cancelRequested: true, polls: 3 }),
        storedTask('c', { polls: 7 }),
      ]);
      await store.putTasks([
        storedTask('a', { polls: 5 }),
        storedTask('c', { polls: 8, nextPollAt: 900 }),
        storedTask('d'),
      ]);
      expect(await store.tasks()).toEqual([
        storedTask('a', { answeredKeys: ['confirm'], polls: 5 }),
        storedTask('b', { cancelRequested: true, polls: 3 }),
        storedTask('c', { polls: 8, nextPollAt: 900 }),
        storedTask('d'),
      ]);
    });

    it(`keeps the last ${WIRE_LOG_LIMIT} wire messages, dropping the oldest`, async () => {
      const store = make();
      const entries = Array.from({ length: WIRE_LOG_LIMIT + 5 }, (_, i) => ({
        at: i,
        direction: 'out' as const,
        message: { id: i },
      }));
      await store.appendWire(entries.slice(0, 10));
      await store.appendWire(entries.slice(10));
      const kept = await store.wire();
      expect(kept).toHaveLength(WIRE_LOG_LIMIT);
      expect(kept[0]).toEqual({ at: 5, direction: 'out', message: { id: 5 } });
      expect(kept.at(-1)?.at).toBe(WIRE_LOG_LIMIT + 4);
    });

    it('keeps the last wire messages however many batches came before them', async () => {
      const store = make();
      const total = 2 * WIRE_LOG_LIMIT + 7;
      for (let start = 0; start < total; start += 500)
        await store.appendWire(
          Array.from({ length: Math.min(500, total - start) }, (_, i) => ({
            at: start + i,
            direction: 'in' as const,
            message: { id: start + i },
          })),
        );
      const kept = await store.wire();
      expect(kept).toHaveLength(WIRE_LOG_LIMIT);
      expect(kept[0]?.at).toBe(total - WIRE_LOG_LIMIT);
      expect(kept.at(-1)?.at).toBe(total - 1);
    });

    it('of a batch larger than the limit keeps its newest, and counts on after them', async () => {
      const store = make();
      const entry = (at: number) => ({ at, direction: 'in' as const, message: { id: at } });
      await store.appendWire(Array.from({ length: WIRE_LOG_LIMIT + 5 }, (_, i) => entry(i)));
      await store.appendWire([entry(WIRE_LOG_LIMIT + 5), entry(WIRE_LOG_LIMIT + 6)]);
      const kept = await store.wire();
      expect(kept).toHaveLength(WIRE_LOG_LIMIT);
      expect(kept[0]?.at).toBe(7);
      expect(kept.at(-1)?.at).toBe(WIRE_LOG_LIMIT + 6);
    });

    it('T12, T19: a kept message comes back whole: its JSON, its re-issue and its HTTP facts', async () => {
      const store = make();
      const http = {
        status: 200,
        statusText: 'OK',
        contentType: 'application/json',
        requestHeaders: { 'mcp-method': 'tasks/get' },
        ms: 3,
      };
      const entries = [
        {
          at: 1,
          direction: 'out' as const,
          message: { id: 2, params: { a: [1, 'x', null] } },
          reissueOf: 1,
        },
        { at: 2, direction: 'in' as const, message: { id: 2, result: { s: 'é\u2028"' } }, http },
      ];
      await store.appendWire(entries);
      expect(await store.wire()).toEqual(entries);
    });

    it('clear empties tasks and wire log', async () => {
      const store = make();
      await store.putTasks([storedTask('a')]);
      await store.appendWire([{ at: 1, direction: 'in', message: {} }]);
      await store.clear();
      expect(await store.tasks()).toEqual([]);
      expect(await store.wire()).toEqual([]);
    });
  });
}

pageStoreContract('MemoryPageStore', () => new MemoryPageStore());
pageStoreContract('IdbPageStore', () => new IdbPageStore(`page-test-${++names}`));

describe('IdbPageStore shared by two tabs', () => {
  it('T12: two tabs appending in turn keep one wire log, in the order written', async () => {
    const name = `page-test-${++names}`;
    const [first, second] = [new IdbPageStore(name), new IdbPageStore(name)];
    const entry = (at: number) => ({ at, direction: 'out' as const, message: { id: at } });
    await first.appendWire([entry(1), entry(2)]);
    await second.appendWire([entry(3)]);
    await first.appendWire([entry(4)]);
    // At once: each batch whole, in whichever order the two transactions ran, none lost.
    await Promise.all([second.appendWire([entry(5), entry(6)]), first.appendWire([entry(7)])]);
    const kept = (await first.wire()).map((e) => e.at);
    expect(kept.slice(0, 4)).toEqual([1, 2, 3, 4]);
    expect([
      [5, 6, 7],
      [7, 5, 6],
    ]).toContainEqual(kept.slice(4));
  });
});

describe("IdbPageStore's wire chunks", () => {
  const rawChunks = async (name: string): Promise<unknown[]> => {
    const db = await openDB(name);
    try {
      return await db.getAll('wireChunks');
    } finally {
      db.close();
    }
  };

  it('are one JSON text per batch: IndexedDB copies a string instead of walking every message', async () => {
    const name = `page-test-${++names}`;
    const store = new IdbPageStore(name);
    const batch = [
      { at: 1, direction: 'out' as const, message: { jsonrpc: '2.0', id: 1, method: 'tasks/get' } },
      { at: 2, direction: 'in' as const, message: { jsonrpc: '2.0', id: 1, result: {} } },
    ];
    await store.appendWire(batch);
    expect(await rawChunks(name)).toEqual([{ end: 2, json: JSON.stringify(batch) }]);
  });

  it('a batch JSON cannot write is kept as objects, and read back with the rest', async () => {
    const name = `page-test-${++names}`;
    const store = new IdbPageStore(name);
    await store.appendWire([{ at: 1, direction: 'in', message: { id: 1 } }]);
    await store.appendWire([{ at: 2, direction: 'in', message: { big: 10n } }]);
    const [text, objects] = await rawChunks(name);
    expect(text).toHaveProperty('json');
    expect(objects).toHaveProperty('entries');
    expect((await store.wire()).map((e) => e.message)).toEqual([{ id: 1 }, { big: 10n }]);
  });
});

describe('IdbPageStore when storage is full', () => {
  const realPut = IDBObjectStore.prototype.put;
  const realAdd = IDBObjectStore.prototype.add;
  afterEach(() => {
    IDBObjectStore.prototype.put = realPut;
    IDBObjectStore.prototype.add = realAdd;
  });
  const fillUp = (): void => {
    const full = (): never => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    IDBObjectStore.prototype.put = full;
    IDBObjectStore.prototype.add = full;
  };

  it('a failed write keeps everything stored before, and no part of the failed batch', async () => {
    const store = new IdbPageStore(`page-test-${++names}`);
    await store.putTasks([storedTask('a', { polls: 1 })]);
    await store.appendWire([{ at: 1, direction: 'out', message: { id: 1 } }]);
    fillUp();
    await expect(
      store.putTasks([storedTask('b'), storedTask('a', { polls: 2 })]),
    ).rejects.toMatchObject({ name: 'QuotaExceededError' });
    await expect(
      store.appendWire([{ at: 2, direction: 'in', message: { id: 1 } }]),
    ).rejects.toMatchObject({ name: 'QuotaExceededError' });
    expect(await store.tasks()).toEqual([storedTask('a', { polls: 1 })]);
    expect(await store.wire()).toEqual([{ at: 1, direction: 'out', message: { id: 1 } }]);
  });
});

describe('mergeStoredTask', () => {
  it('keeps the newer server report, and an outcome once known', () => {
    const older = storedTask('a', {
      task: {
        ...storedTask('a').task,
        status: 'completed',
        lastUpdatedAt: '2026-07-28T10:00:05.000Z',
      },
      outcome: 'completed',
    });
    const stale = storedTask('a');
    const merged = mergeStoredTask(older, stale);
    expect(merged.task.status).toBe('completed');
    expect(merged.outcome).toBe('completed');
  });
});
