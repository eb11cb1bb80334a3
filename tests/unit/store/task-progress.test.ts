/**
 * Every task's progress in one record, apart from the tasks' own: how a
 * reload lays it over a task's record (`withProgress`), and both stores
 * keeping it (IndexedDB under fake-indexeddb, and the in-memory twin).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IdbPageStore } from '../../../src/store/db.ts';
import { MemoryPageStore } from '../../../src/store/memory-page-store.ts';
import type { PageStore } from '../../../src/store/page-store.ts';
import { withProgress, type StoredProgress } from '../../../src/store/task-progress.ts';
import { storedTask } from '../helpers/stored-task.ts';

const report = storedTask('a').task;

function progress(patch: Partial<StoredProgress> = {}): StoredProgress {
  return {
    revision: 5,
    polls: 9,
    nextPollAt: 4000,
    task: { ...report, statusMessage: 'half way', lastUpdatedAt: '2026-07-28T10:00:04.000Z' },
    ...patch,
  };
}

describe('withProgress', () => {
  it('T12: progress written after the record is laid over it, and is never the last word', () => {
    const record = storedTask('a', { revision: 2, polls: 3, nextPollAt: 1000, keptAtClose: true });
    expect(withProgress(record, progress())).toEqual({
      ...storedTask('a', { polls: 9, nextPollAt: 4000 }),
      revision: 5,
      task: progress().task,
    });
  });

  it('T12: progress written before the record, or at the same write, leaves the record as it is', () => {
    const record = storedTask('a', { revision: 5, polls: 3, nextPollAt: 1000, keptAtClose: true });
    expect(withProgress(record, progress())).toBe(record);
    expect(withProgress(record, progress({ revision: 4 }))).toBe(record);
    expect(withProgress(record, undefined)).toBe(record);
  });

  it('T12: a schedule absent from the progress (a tasks/get was out) is absent after it', () => {
    const record = storedTask('a', { revision: 1, nextPollAt: 1000 });
    const laid = withProgress(record, progress({ nextPollAt: undefined }));
    expect(laid).not.toHaveProperty('nextPollAt');
    const { nextPollAt: _, ...withoutSchedule } = progress();
    expect(withProgress(record, withoutSchedule)).not.toHaveProperty('nextPollAt');
  });

  it('T9: a task that ended keeps its record: outcome, last report, no schedule', () => {
    const record = storedTask('a', {
      revision: 1,
      outcome: 'completed',
      task: { ...report, status: 'completed' },
    });
    delete record.nextPollAt;
    expect(withProgress(record, progress({ revision: 9 }))).toBe(record);
  });

  it('T6: a record from before revisions takes any progress; a newer report in the record stays', () => {
    const newer = { ...report, status: 'input_required' as const };
    newer.lastUpdatedAt = '2026-07-28T10:00:09.000Z';
    const record = storedTask('a', { polls: 12, task: newer });
    const laid = withProgress(record, progress({ revision: 1 }));
    expect(laid).toMatchObject({ revision: 1, polls: 12, nextPollAt: 4000, task: newer });
  });
});

let names = 0;
function progressContract(name: string, make: () => PageStore): void {
  describe(`${name} keeps every task's progress in one record`, () => {
    it('T12: the tasks read back carry their progress; tasks without any keep their record', async () => {
      const store = make();
      await store.putTasks([
        storedTask('a', { revision: 1 }),
        storedTask('b', { revision: 1, polls: 2 }),
      ]);
      await store.putProgress(new Map([['a', progress()]]));
      const [a, b] = await store.tasks();
      expect(a).toMatchObject({ taskId: 'a', polls: 9, nextPollAt: 4000, revision: 5 });
      expect(a!.task.statusMessage).toBe('half way');
      expect(b).toEqual(storedTask('b', { revision: 1, polls: 2 }));
    });

    it('T12: a later write of some tasks leaves the others; a record written after it wins', async () => {
      const store = make();
      await store.putTasks([storedTask('a', { revision: 1 }), storedTask('b', { revision: 1 })]);
      await store.putProgress(
        new Map([
          ['a', progress({ revision: 2, polls: 4 })],
          ['b', progress({ revision: 2, polls: 5 })],
        ]),
      );
      await store.putProgress(new Map([['a', progress({ revision: 3, polls: 6 })]]));
      expect((await store.tasks()).map((t) => t.polls)).toEqual([6, 5]);
      await store.putTasks([storedTask('b', { revision: 4, polls: 7, cancelRequested: true })]);
      expect((await store.tasks())[1]).toEqual(
        storedTask('b', { revision: 4, polls: 7, cancelRequested: true }),
      );
    });

    it('a deleted task takes its progress with it; clear empties it too', async () => {
      const store = make();
      await store.putTasks([storedTask('a', { revision: 1 })]);
      await store.putProgress(new Map([['a', progress()]]));
      await store.deleteTasks(['a']);
      await store.putTasks([storedTask('a', { revision: 1 })]);
      expect(await store.tasks()).toEqual([storedTask('a', { revision: 1 })]);
      await store.putProgress(new Map([['a', progress()]]));
      await store.clear();
      await store.putTasks([storedTask('a', { revision: 1 })]);
      expect(await store.tasks()).toEqual([storedTask('a', { revision: 1 })]);
    });

    it('what was written is a copy: changing the map afterwards changes nothing stored', async () => {
      const store = make();
      await store.putTasks([storedTask('a', { revision: 1 })]);
      const written = new Map([['a', progress()]]);
      await store.putProgress(written);
      written.get('a')!.polls = 99;
      written.set('b', progress());
      expect((await store.tasks()).map((t) => [t.taskId, t.polls])).toEqual([['a', 9]]);
    });
  });
}

progressContract('MemoryPageStore', () => new MemoryPageStore());
progressContract('IdbPageStore', () => new IdbPageStore(`page-progress-${++names}`));

describe('IdbPageStore: two tabs writing progress', () => {
  it('T12: at once, each keeps its own tasks: neither write drops the other', async () => {
    const name = `page-progress-${++names}`;
    const [first, second] = [new IdbPageStore(name), new IdbPageStore(name)];
    await first.putTasks([storedTask('a', { revision: 1 }), storedTask('b', { revision: 1 })]);
    await Promise.all([
      first.putProgress(new Map([['a', progress({ polls: 3 })]])),
      second.putProgress(new Map([['b', progress({ polls: 4 })]])),
    ]);
    expect((await first.tasks()).map((t) => t.polls)).toEqual([3, 4]);
  });
});
