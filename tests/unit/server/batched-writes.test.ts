/**
 * The job runner's write queue: writes asked for together go to the store
 * as one updateMany, in the order asked, and one write's failure is its own.
 */
import { describe, expect, it } from 'vitest';
import { BatchedWrites } from '../../../src/server/batched-writes.ts';
import { MemoryTaskStore } from '../../../src/server/memory-task-store.ts';
import type { TaskRecord, TaskUpdate } from '../../../src/server/task-store.ts';
import { record } from './task-store-contract.ts';

/** A memory store that remembers the tasks of each updateMany and can be made to fail. */
class CountingStore extends MemoryTaskStore {
  readonly batches: string[][] = [];
  failNext = false;
  /** While set, an updateMany waits for it: a batch being stored. */
  hold: Promise<void> | undefined;
  override async update(taskId: string, update: TaskUpdate): Promise<TaskRecord | undefined> {
    this.batches.push([taskId]);
    return super.update(taskId, update);
  }
  override async updateMany(
    taskIds: readonly string[],
    update: TaskUpdate,
  ): Promise<(TaskRecord | undefined)[]> {
    this.batches.push([...taskIds]);
    if (this.failNext) {
      this.failNext = false;
      throw new Error('disk full');
    }
    await this.hold;
    return super.updateMany(taskIds, update);
  }
}

async function storeWith(...ids: string[]): Promise<CountingStore> {
  const store = new CountingStore();
  for (const id of ids) await store.create(record(id));
  return store;
}

const say = (message: string) => (r: TaskRecord) => ({
  ...r,
  statusMessage: [r.statusMessage, message].filter(Boolean).join(', '),
});

describe('BatchedWrites', () => {
  it('writes asked for in one turn reach the store as one updateMany', async () => {
    const store = await storeWith('a', 'b', 'c');
    const writes = new BatchedWrites(store);
    const stored = await Promise.all(
      ['a', 'b', 'c'].map((id) => writes.write(id, say(`hello ${id}`))),
    );
    expect(store.batches).toEqual([['a', 'b', 'c']]);
    expect(stored.map((r) => r?.statusMessage)).toEqual(['hello a', 'hello b', 'hello c']);
  });

  it('writes asked for while a batch is being stored all go into the next one', async () => {
    const store = await storeWith('a', 'b', 'c');
    const writes = new BatchedWrites(store);
    let release = (): void => {};
    store.hold = new Promise((resolve) => (release = resolve));
    const first = writes.write('a', say('1'));
    while (store.batches.length === 0) await Promise.resolve();
    // The first batch is being stored: these wait for it, then go together.
    const later = ['a', 'b', 'c', 'b'].map((id, i) => writes.write(id, say(`${i + 2}`)));
    release();
    await Promise.all([first, ...later]);
    expect(store.batches).toEqual([['a'], ['a', 'b', 'c']]);
    // Two changes to one task in a batch apply in the order asked for.
    expect((await store.get('b'))?.statusMessage).toBe('3, 5');
    expect((await store.get('a'))?.statusMessage).toBe('1, 2');
  });

  it('a change that throws rejects its own write only', async () => {
    const store = await storeWith('a', 'b');
    const writes = new BatchedWrites(store);
    const broken = writes.write('a', () => {
      throw new Error('bad transition');
    });
    const fine = writes.write('b', say('ok'));
    const sameTask = writes.write('a', say('still written'));
    await expect(broken).rejects.toThrow('bad transition');
    expect((await fine)?.statusMessage).toBe('ok');
    expect((await sameTask)?.statusMessage).toBe('still written');
    expect(store.batches).toHaveLength(1);
  });

  it('a store failure rejects every write of the batch, and the next batch goes on', async () => {
    const store = await storeWith('a', 'b');
    store.failNext = true;
    const writes = new BatchedWrites(store);
    const failed = [writes.write('a', say('x')), writes.write('b', say('y'))];
    for (const write of failed) await expect(write).rejects.toThrow('disk full');
    expect((await writes.write('a', say('again')))?.statusMessage).toBe('again');
  });

  it('a write to a task that does not exist resolves undefined', async () => {
    const store = await storeWith('a');
    const writes = new BatchedWrites(store);
    expect(await writes.write('missing', say('x'))).toBeUndefined();
  });
});
