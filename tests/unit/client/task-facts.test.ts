/**
 * The facts the journal keeps about a task: which changes a reload needs at
 * once and which may wait, what a reload does with the schedule it finds,
 * and a finished task rebuilt without running anything.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import {
  factsChange,
  finishedActor,
  resumedPollAt,
  resumeInputOf,
} from '../../../src/client/task-facts.ts';
import type { TaskActor } from '../../../src/client/task-follower.ts';
import { taskMachine, type TaskMachineContext } from '../../../src/machines/task-machine.ts';
import type { DetailedTask } from '../../../src/protocol/task.ts';
import { ask, fakeMachine, handle, noCalls } from '../helpers/journal-actors.ts';
import { storedTask } from '../helpers/stored-task.ts';

/** A context as the machine starts it: the facts of a task just followed. */
const base: TaskMachineContext = createActor(taskMachine, {
  input: { task: handle, toolName: 'x', now: () => 0 },
}).getSnapshot().context;
const report = (patch: Partial<DetailedTask>): DetailedTask => ({
  ...handle,
  resultType: undefined,
  ...patch,
});

describe('factsChange', () => {
  it('T12: a task first seen is decisive; the same context changes nothing', () => {
    expect(factsChange(undefined, base)).toBe('decisive');
    expect(factsChange(base, base)).toBe('none');
  });

  it("T12: the poll count, the schedule and the report's progress text are progress", () => {
    expect(factsChange(base, { ...base, polls: 1, nextPollAt: undefined })).toBe('progress');
    expect(factsChange(base, { ...base, nextPollAt: 500 })).toBe('progress');
    const progressed = report({ statusMessage: 'computing: 2 of 8 s', lastUpdatedAt: 'later' });
    expect(factsChange(base, { ...base, task: progressed })).toBe('progress');
  });

  it('what the journal does not keep changes nothing: questions shown, failures counted, the link', () => {
    const next: TaskMachineContext = {
      ...base,
      pendingInputs: { confirm: ask.confirm },
      pollFailures: 2,
      lastPollSentAt: 40,
      link: { since: 1, reason: 'offline', attempt: 1 },
      // Equal facts in fresh objects, as assign builds them.
      answeredKeys: [...base.answeredKeys],
      unsent: { ...base.unsent },
    };
    expect(factsChange(base, next)).toBe('none');
  });

  const decisive: [string, Partial<TaskMachineContext>][] = [
    ['T14: an answered key', { answeredKeys: ['confirm'] }],
    ['T15: an answer not yet sent', { unsent: { confirm: { action: 'accept' } } }],
    ['T15: an answer not yet acknowledged', { inFlight: { confirm: { action: 'accept' } } }],
    ['T17: a cancel intent', { cancelRequested: true }],
    ['T9: an outcome', { outcome: 'completed' }],
    ['an error shown on the card', { lastError: { code: -32603, message: 'boom' } }],
    ['T10: a new status', { task: report({ status: 'input_required', inputRequests: ask }) }],
    ['T6, T12: a new poll interval', { task: report({ pollIntervalMs: 40 }) }],
    ['T13: a new TTL', { task: report({ ttlMs: 5000 }) }],
    ['T10: a result', { task: report({ result: { content: [] } }) }],
  ];
  for (const [what, patch] of decisive)
    it(`${what} is decisive: a reload must find it`, () => {
      expect(factsChange(base, { ...base, ...patch })).toBe('decisive');
    });

  it('T14: a question asked anew is decisive, the same question repeated by a poll is not', () => {
    const asking: TaskMachineContext = {
      ...base,
      task: report({ status: 'input_required', inputRequests: ask }),
    };
    const repeated = report({ status: 'input_required', inputRequests: structuredClone(ask) });
    expect(factsChange(asking, { ...asking, task: repeated })).toBe('progress');
    const other = report({ status: 'input_required', inputRequests: { other: ask.confirm } });
    expect(factsChange(asking, { ...asking, task: other })).toBe('decisive');
  });
});

describe('resumedPollAt', () => {
  const now = 10_000;
  it('T12: a schedule still ahead is kept: the first poll waits only for what is left', () => {
    expect(resumedPollAt(storedTask('a', { nextPollAt: now + 120 }), now)).toBe(now + 120);
  });

  it('T12: a past schedule the closing page wrote is kept: the poll was due and not sent', () => {
    const closed = storedTask('a', { nextPollAt: now - 3000, keptAtClose: true });
    expect(resumedPollAt(closed, now)).toBe(now - 3000);
  });

  it('T12: a past schedule written earlier may be stale: the first poll waits a whole interval', () => {
    const stale = storedTask('a', { nextPollAt: now - 3000 });
    expect(resumedPollAt(stale, now)).toBe(now + 500);
    const noInterval = storedTask('a', { nextPollAt: now - 3000 });
    delete noInterval.task.pollIntervalMs;
    expect(resumedPollAt(noInterval, now)).toBe(now + 1000);
  });

  it('T12: no schedule (a tasks/get was out) stays none: the machine waits a whole interval', () => {
    const polling = storedTask('a');
    delete polling.nextPollAt;
    expect(resumedPollAt(polling, now)).toBeUndefined();
  });
});

describe('a reload with the schedule it finds', () => {
  const start = Date.parse(handle.createdAt);
  /** A fresh actor from `stored`, on a simulated clock that reads `start` at the reload; its polls' times. */
  function resumed(nextPollAt: number, keptAtClose: boolean) {
    const clock = new SimulatedClock();
    const now = () => start + clock.now();
    const polls: number[] = [];
    const machine = fakeMachine(() => {
      polls.push(clock.now());
      return report({ pollIntervalMs: 300, lastUpdatedAt: new Date(now()).toISOString() });
    }, noCalls());
    const stored = storedTask('t1', {
      task: report({ pollIntervalMs: 300 }),
      nextPollAt,
      polls: 12,
      ...(keptAtClose ? { keptAtClose: true as const } : {}),
    });
    const actor: TaskActor = createActor(machine, {
      clock,
      input: { ...resumeInputOf(stored, now()), now },
    }).start();
    return { clock, polls, actor };
  }

  it('T12: a stale past schedule: no poll for a whole interval, then one every interval', async () => {
    const { clock, polls, actor } = resumed(start - 5000, false);
    clock.increment(299);
    await Promise.resolve();
    expect(polls).toEqual([]);
    clock.increment(1);
    await vi.waitFor(() => expect(polls).toEqual([300]));
    await vi.waitFor(() => expect(actor.getSnapshot().context.nextPollAt).toBe(start + 600));
    clock.increment(299);
    await Promise.resolve();
    expect(polls).toEqual([300]);
    clock.increment(1);
    await vi.waitFor(() => expect(polls).toEqual([300, 600]));
    expect(actor.getSnapshot().context.polls).toBe(14);
    actor.stop();
  });

  it("T12: the closing page's past schedule: the due poll goes at once", async () => {
    const { clock, polls, actor } = resumed(start - 5000, true);
    clock.increment(0);
    await vi.waitFor(() => expect(polls).toEqual([0]));
    actor.stop();
  });

  it('T12: a schedule still ahead: the first poll when it says', async () => {
    const { clock, polls, actor } = resumed(start + 120, false);
    clock.increment(119);
    await Promise.resolve();
    expect(polls).toEqual([]);
    clock.increment(1);
    await vi.waitFor(() => expect(polls).toEqual([120]));
    actor.stop();
  });
});

describe('finishedActor', () => {
  it('a task the page stopped following comes back finished, its outcome and error kept, with nothing running', () => {
    const actor = finishedActor(
      storedTask('t9', {
        outcome: 'gone',
        lastError: { code: -32602, message: 'Task not found: t9' },
      }),
    );
    const snapshot = actor!.getSnapshot();
    expect(snapshot.status).toBe('done');
    expect(snapshot.value).toBe('gone');
    expect(snapshot.context).toMatchObject({
      taskId: 't9',
      outcome: 'gone',
      lastError: { code: -32602 },
    });
    expect(finishedActor(storedTask('t10'))).toBeUndefined();
  });
});
