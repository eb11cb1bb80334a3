/**
 * Drives the task machine on a simulated clock, with its three requests
 * (tasks/get, tasks/update, tasks/cancel) answered by the test and recorded
 * with the simulated time they were made at.
 */
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { pollsBy, taskMachine } from '../../../src/machines/task-machine.ts';
import type {
  CreateTaskResult,
  DetailedTask,
  InputRequest,
  TaskStatus,
} from '../../../src/protocol/task.ts';

export const TASK_ID = 'task-7f3a9c';
export const CREATED = '2026-07-28T10:00:00.000Z';
export const BASE = Date.parse(CREATED);
export const GONE = { code: -32602, message: 'Unknown task' };

export function created(overrides: Partial<CreateTaskResult> = {}): CreateTaskResult {
  return {
    resultType: 'task',
    taskId: TASK_ID,
    status: 'working',
    createdAt: CREATED,
    lastUpdatedAt: CREATED,
    ttlMs: null,
    pollIntervalMs: 1000,
    ...overrides,
  };
}

export function elicit(message: string): InputRequest {
  return {
    method: 'elicitation/create',
    params: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } },
  };
}

/** A fresh report, as a server would build it; `at` is ms after creation. */
export function report(
  status: TaskStatus,
  extra: Partial<DetailedTask> = {},
  at = 0,
): DetailedTask {
  return {
    taskId: TASK_ID,
    status,
    createdAt: CREATED,
    lastUpdatedAt: new Date(BASE + at).toISOString(),
    ttlMs: null,
    pollIntervalMs: 1000,
    ...extra,
  };
}

/** Input requests rebuilt on every call, as a real server would serialise them (T14). */
export const asking = (...keys: string[]) =>
  Object.fromEntries(keys.map((key) => [key, elicit(`value for ${key}`)]));

export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface FollowOptions {
  task?: Partial<CreateTaskResult>;
  /** Answers the n-th tasks/get (1-based), made at simulated time `at`; throw to reject. */
  poll?: (n: number, at: number) => DetailedTask | Promise<DetailedTask>;
  update?: (n: number) => void | Promise<void>;
  cancel?: (n: number) => void | Promise<void>;
  now?: () => number;
  toolName?: string;
}

export function follow(options: FollowOptions = {}) {
  const clock = new SimulatedClock();
  const calls = {
    get: [] as { at: number; taskId: string }[],
    update: [] as { at: number; taskId: string; inputResponses: Record<string, unknown> }[],
    cancel: [] as { at: number; taskId: string }[],
  };
  const machine = taskMachine.provide({
    actions: {
      sendPoll: pollsBy(async (taskId) => {
        calls.get.push({ at: clock.now(), taskId });
        return (options.poll ?? (() => report('working')))(calls.get.length, clock.now());
      }),
    },
    actors: {
      sendUpdate: fromPromise<void, { taskId: string; inputResponses: Record<string, unknown> }>(
        async ({ input }) => {
          calls.update.push({ at: clock.now(), ...input });
          return options.update?.(calls.update.length);
        },
      ),
      sendCancel: fromPromise<void, { taskId: string }>(async ({ input }) => {
        calls.cancel.push({ at: clock.now(), ...input });
        return options.cancel?.(calls.cancel.length);
      }),
    },
  });
  const actor = createActor(machine, {
    clock,
    input: {
      task: created(options.task),
      toolName: options.toolName ?? 'slow-report',
      now: options.now ?? (() => BASE + clock.now()),
    },
  });
  actor.start();
  /** Advances simulated time 1 ms at a time, letting fake promises settle in between. */
  const advance = async (ms: number) => {
    for (let i = 0; i < ms; i++) {
      clock.increment(1);
      await flush();
    }
  };
  const send = async (event: Parameters<typeof actor.send>[0]) => {
    actor.send(event);
    await flush();
  };
  return { actor, clock, calls, advance, send, snap: () => actor.getSnapshot() };
}
