/** Task actors for tests of the page's journal: a machine whose requests are recorded, and what it is asked. */
import { vi, expect } from 'vitest';
import { fromPromise } from 'xstate';
import type { TaskActor } from '../../../src/client/task-follower.ts';
import { taskMachine } from '../../../src/machines/task-machine.ts';
import type { CreateTaskResult, DetailedTask } from '../../../src/protocol/task.ts';
import type { PageStore, StoredTask } from '../../../src/store/page-store.ts';
import type { MemoryPageStore } from '../../../src/store/memory-page-store.ts';

/** Real time: these actors run on the wall clock unless given one, and the TTL counts from here. */
export const CREATED = new Date().toISOString();

export const handle: CreateTaskResult = {
  resultType: 'task',
  taskId: 't1',
  status: 'working',
  createdAt: CREATED,
  lastUpdatedAt: CREATED,
  ttlMs: 60_000,
  pollIntervalMs: 20,
};

export const ask = {
  confirm: {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message: 'Delete?',
      requestedSchema: { type: 'object', properties: {} },
    },
  },
};

export const facts = {
  toolName: 'confirm_delete',
  arguments: { filename: 'a.txt' },
  identity: 'learner',
  followedAt: 1,
};

/** One turn of the event loop: what was queued in this tick has run. */
export const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export interface Calls {
  update: unknown[];
  cancel: number;
}

export const noCalls = (): Calls => ({ update: [], cancel: 0 });

/** A machine whose requests are recorded; tasks/get answers with `report()`. */
export function fakeMachine(report: () => DetailedTask, calls: Calls) {
  return taskMachine.provide({
    actors: {
      pollTask: fromPromise<DetailedTask, { taskId: string }>(async () => report()),
      // Never acknowledged: the answer stays in flight, as when the page reloads mid-request.
      sendUpdate: fromPromise<void, { taskId: string; inputResponses: Record<string, unknown> }>(
        async ({ input }) => {
          calls.update.push(input.inputResponses);
          await new Promise(() => {});
        },
      ),
      sendCancel: fromPromise<void, { taskId: string }>(async () => {
        calls.cancel++;
      }),
    },
  });
}

export const asking = (): DetailedTask => ({
  ...handle,
  resultType: undefined,
  status: 'input_required',
  inputRequests: ask,
  lastUpdatedAt: new Date(Date.parse(CREATED) + 1000).toISOString(),
});

/** Waits for the actor to show the question; fails the test if it never does. */
export const asked = (actor: TaskActor) =>
  vi.waitFor(() => expect(actor.getSnapshot().context.pendingInputs).toHaveProperty('confirm'));

/** `inner`, with `putTasks` (and `putProgress`, if given) replaced: to count writes, hold them, or fail them. */
export function withPutTasks(
  inner: MemoryPageStore,
  putTasks: (tasks: readonly StoredTask[]) => Promise<void>,
  putProgress: PageStore['putProgress'] = (progress) => inner.putProgress(progress),
): PageStore {
  return {
    putProgress,
    deleteTasks: (ids) => inner.deleteTasks(ids),
    tasks: () => inner.tasks(),
    wire: () => inner.wire(),
    clear: () => inner.clear(),
    appendWire: (entries) => inner.appendWire(entries),
    putTasks,
  };
}
