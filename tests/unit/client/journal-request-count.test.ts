/**
 * What the journal costs IndexedDB while many tasks poll: requests made on
 * the page database (fake-indexeddb), counted over seconds of a simulated
 * clock. Progress (poll count, schedule, progress text) changes on every
 * poll of every task; its writes must cost a fixed number of requests a
 * second, not one per task. (100 tasks keep the test short on a shared
 * machine; at 1,000 the count is the same, see src/store/README.md.)
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import type { TaskActor } from '../../../src/client/task-follower.ts';
import { TaskJournal } from '../../../src/client/task-journal.ts';
import type { DetailedTask } from '../../../src/protocol/task.ts';
import { IdbPageStore } from '../../../src/store/db.ts';
import { facts, fakeMachine, handle, noCalls } from '../helpers/journal-actors.ts';

const TASKS = 100;
const POLL_MS = 250;
const SECONDS = 3;
const REQUESTS = ['put', 'add', 'get', 'getAll', 'delete', 'openCursor', 'openKeyCursor'] as const;

afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts every request made on any object store, by method. */
function countRequests(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const method of REQUESTS) {
    const original = IDBObjectStore.prototype[method] as (...args: unknown[]) => unknown;
    vi.spyOn(IDBObjectStore.prototype, method).mockImplementation(function (
      this: IDBObjectStore,
      ...args: unknown[]
    ) {
      counts.set(method, (counts.get(method) ?? 0) + 1);
      return original.apply(this, args) as never;
    } as never);
  }
  return counts;
}

describe('TaskJournal: what many polling tasks cost IndexedDB', () => {
  it('T12: progress of 100 tasks polled every 250 ms costs two requests a second, not one per task', async () => {
    const clock = new SimulatedClock();
    const start = Date.parse(handle.createdAt);
    const now = () => start + clock.now();
    const store = new IdbPageStore(`journal-count-${Date.now()}`);
    const journal = new TaskJournal(store, { timers: clock, progressWriteMs: 1000 });
    const actors: TaskActor[] = [];
    for (let i = 0; i < TASKS; i++) {
      const taskId = `t${String(i).padStart(4, '0')}`;
      const report = (): DetailedTask => ({
        ...handle,
        taskId,
        resultType: undefined,
        pollIntervalMs: POLL_MS,
        statusMessage: `computing at ${clock.now()} ms`,
        lastUpdatedAt: new Date(now()).toISOString(),
      });
      const actor: TaskActor = createActor(fakeMachine(report, noCalls()), {
        clock,
        input: { task: { ...handle, taskId, pollIntervalMs: POLL_MS }, toolName: 'x', now },
      }).start();
      actors.push(actor);
      journal.track(actor, { ...facts, followedAt: i });
    }
    await journal.flush(); // The first facts of every task, written within their tick.
    expect(await store.tasks()).toHaveLength(TASKS);

    const counts = countRequests();
    for (let step = 0; step < (SECONDS * 1000) / POLL_MS; step++) {
      const polled = actors.map((actor) => actor.getSnapshot().context.polls);
      clock.increment(POLL_MS);
      await vi.waitFor(() =>
        expect(
          actors.every(
            (actor, i) =>
              actor.getSnapshot().context.polls > polled[i]! &&
              actor.getSnapshot().context.nextPollAt !== undefined,
          ),
        ).toBe(true),
      );
    }
    await journal.flush();
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    // One progress write a second (a read and a put), one more from the final flush.
    expect(total).toBeLessThanOrEqual(2 * (SECONDS + 1));

    // Nothing a reload shows was lost: every task's latest poll count and progress text.
    const stored = new Map((await store.tasks()).map((task) => [task.taskId, task]));
    for (const actor of actors) {
      const context = actor.getSnapshot().context;
      expect(stored.get(context.taskId)).toMatchObject({
        polls: context.polls,
        nextPollAt: context.nextPollAt,
        task: { statusMessage: (context.task as DetailedTask).statusMessage },
      });
      actor.stop();
    }
  }, 60_000);
});
