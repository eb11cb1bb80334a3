/**
 * The contract every TaskStore implementation must meet, as a reusable
 * suite, run against the in-memory store and the IndexedDB one.
 */
import { describe, expect, it } from 'vitest';
import type { TaskRecord, TaskStore } from '../../../src/server/task-store.ts';

export function record(taskId: string, patch: Partial<TaskRecord> = {}): TaskRecord {
  return {
    taskId,
    owner: 'owner-digest',
    toolName: 'slow_compute',
    arguments: { seconds: 1 },
    status: 'working',
    createdAt: 1000,
    lastUpdatedAt: 1000,
    ttlMs: 60_000,
    pollIntervalMs: 500,
    inputRequests: {},
    issuedInputKeys: [],
    inputResponses: {},
    cancelRequested: false,
    ...patch,
  };
}

export function taskStoreContract(
  name: string,
  makeStore: () => Promise<TaskStore> | TaskStore,
): void {
  describe(`${name} meets the TaskStore contract`, () => {
    it('T8: a created task is readable at once', async () => {
      const store = await makeStore();
      await store.create(record('a'));
      expect(await store.get('a')).toEqual(record('a'));
    });

    it('refuses to create the same id twice', async () => {
      const store = await makeStore();
      await store.create(record('a'));
      await expect(store.create(record('a'))).rejects.toThrow();
    });

    it('update applies a function to the current record and returns the stored result', async () => {
      const store = await makeStore();
      await store.create(record('a'));
      const next = await store.update('a', (r) => ({
        ...r,
        statusMessage: 'half way',
        lastUpdatedAt: 2000,
      }));
      expect(next).toMatchObject({ statusMessage: 'half way', lastUpdatedAt: 2000 });
      expect(await store.get('a')).toMatchObject({ statusMessage: 'half way' });
      expect(await store.update('missing', (r) => r)).toBeUndefined();
    });

    it('updateMany applies one change to each named task and returns the stored records in order', async () => {
      const store = await makeStore();
      for (const id of ['a', 'b', 'c']) await store.create(record(id));
      const seen: string[] = [];
      store.subscribe((r) => seen.push(`${r.taskId}:${r.statusMessage}`));
      const stored = await store.updateMany(['c', 'missing', 'a'], (r) => ({
        ...r,
        statusMessage: `renewed ${r.taskId}`,
      }));
      expect(stored.map((r) => r?.statusMessage)).toEqual(['renewed c', undefined, 'renewed a']);
      expect((await store.get('a'))?.statusMessage).toBe('renewed a');
      expect((await store.get('b'))?.statusMessage).toBeUndefined();
      expect(seen.sort()).toEqual(['a:renewed a', 'c:renewed c']);
      expect(await store.updateMany([], (r) => r)).toEqual([]);
    });

    it('updateMany is all or nothing: a change that throws for one task writes none of them', async () => {
      const store = await makeStore();
      for (const id of ['a', 'b']) await store.create(record(id));
      await expect(
        store.updateMany(['a', 'b'], (r) => {
          if (r.taskId === 'b') throw new Error('bad transition');
          return { ...r, statusMessage: 'changed' };
        }),
      ).rejects.toThrow('bad transition');
      expect((await store.get('a'))?.statusMessage).toBeUndefined();
    });

    it('updateMany refuses a task named twice: its change would run on what it already changed', async () => {
      const store = await makeStore();
      await store.create(record('a'));
      await expect(
        store.updateMany(['a', 'a'], (r) => ({
          ...r,
          issuedInputKeys: [...r.issuedInputKeys, 'k'],
        })),
      ).rejects.toThrow(/named twice/);
      expect((await store.get('a'))?.issuedInputKeys).toEqual([]);
    });

    it('updateMany hands out copies', async () => {
      const store = await makeStore();
      await store.create(record('a'));
      const [copy] = await store.updateMany(['a'], (r) => ({ ...r, statusMessage: 'x' }));
      if (copy) copy.status = 'failed';
      expect((await store.get('a'))?.status).toBe('working');
    });

    it('changing a record get returned does not change the store: it is a copy, or frozen', async () => {
      const store = await makeStore();
      await store.create(record('a'));
      const got = await store.get('a');
      expect(got).toBeDefined();
      const change = (): void => {
        got!.status = 'failed';
        got!.issuedInputKeys.push('k');
      };
      // A frozen record refuses the change (modules run in strict mode); a copy takes it.
      if (Object.isFrozen(got)) expect(change).toThrow(TypeError);
      else change();
      expect(await store.get('a')).toMatchObject({ status: 'working', issuedInputKeys: [] });
    });

    it('notifies subscribers of creates and updates until they unsubscribe', async () => {
      const store = await makeStore();
      const seen: string[] = [];
      const unsubscribe = store.subscribe((r) => seen.push(`${r.taskId}:${r.status}`));
      await store.create(record('a'));
      await store.update('a', (r) => ({ ...r, status: 'completed' }));
      unsubscribe();
      await store.update('a', (r) => ({ ...r, statusMessage: 'x' }));
      expect(seen).toEqual(['a:working', 'a:completed']);
    });

    it('delete removes a task, and all lists what is left', async () => {
      const store = await makeStore();
      await store.create(record('a'));
      await store.create(record('b'));
      await store.delete('a');
      expect(await store.get('a')).toBeUndefined();
      expect((await store.all()).map((r) => r.taskId)).toEqual(['b']);
    });

    it('unfinished lists the tasks that are neither completed, failed nor cancelled', async () => {
      const store = await makeStore();
      await store.create(record('w'));
      await store.create(record('i', { status: 'input_required' }));
      await store.create(record('c', { status: 'completed' }));
      await store.update('w', (r) => ({ ...r, status: 'cancelled' }));
      expect((await store.unfinished()).map((r) => r.taskId)).toEqual(['i']);
    });

    it('keeps the durable-job fields: lease, checkpoint, resumes, taken answers', async () => {
      const store = await makeStore();
      const durable = record('a', {
        lease: { holder: 'runner-1', expiresAt: 4000 },
        checkpoint: { data: { stage: 2 }, label: 'stage 2 done', savedAt: 3000 },
        resumes: 1,
        takenResponses: { k: { action: 'accept' } },
      });
      await store.create(durable);
      expect(await store.get('a')).toEqual(durable);
    });
  });
}
