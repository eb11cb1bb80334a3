/**
 * Resuming a task after a reload (T12): a fresh actor seeded from the facts
 * a page kept, never a persisted actor. Driven by SimulatedClock.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { pollsBy, taskMachine, type TaskResume } from '../../../src/machines/task-machine.ts';
import type { DetailedTask } from '../../../src/protocol/task.ts';
import { BASE, elicit, flush, report } from '../helpers/task-machine-driver.ts';

/** The reload happens this long after creation. */
const RELOADED_AT = 5000;

function resume(
  last: DetailedTask,
  facts: Partial<TaskResume>,
  poll: (n: number) => DetailedTask = () => last,
) {
  const clock = new SimulatedClock();
  const calls = {
    get: [] as number[],
    update: [] as Record<string, unknown>[],
    cancel: [] as number[],
  };
  const machine = taskMachine.provide({
    actions: {
      sendPoll: pollsBy(async () => {
        calls.get.push(clock.now());
        return poll(calls.get.length);
      }),
    },
    actors: {
      sendUpdate: fromPromise<void, { taskId: string; inputResponses: Record<string, unknown> }>(
        async ({ input }) => {
          calls.update.push(input.inputResponses);
        },
      ),
      sendCancel: fromPromise<void, { taskId: string }>(async () => {
        calls.cancel.push(clock.now());
      }),
    },
  });
  const now = (): number => BASE + RELOADED_AT + clock.now();
  const actor = createActor(machine, {
    clock,
    input: {
      task: last,
      toolName: 'deploy_service',
      now,
      resume: { answeredKeys: [], unsent: {}, cancelRequested: false, polls: 3, ...facts },
    },
  });
  actor.start();
  const advance = async (ms: number) => {
    for (let i = 0; i < ms; i++) {
      clock.increment(1);
      await flush();
    }
  };
  return { actor, calls, advance, snap: () => actor.getSnapshot() };
}

describe('taskMachine resumed from stored facts', () => {
  it('T12: the first poll comes when the stored next poll time says, not a whole interval later', async () => {
    const t = resume(report('working'), { nextPollAt: BASE + RELOADED_AT + 300 });
    await t.advance(299);
    expect(t.calls.get).toEqual([]);
    await t.advance(1);
    expect(t.calls.get).toEqual([300]);
    expect(t.snap().context.polls).toBe(4);
    // Then the usual interval again.
    await t.advance(1000);
    expect(t.calls.get).toEqual([300, 1300]);
  });

  it('T12: a poll that was due before the reload goes out at once', async () => {
    const t = resume(report('working'), { nextPollAt: BASE + 1000 });
    await t.advance(1);
    // A zero delay, which the simulated clock fires on its first tick.
    expect(t.calls.get).toEqual([1]);
  });

  it('T14: a key answered before the reload is never asked again, however often polls repeat it', async () => {
    const asking = { confirm: elicit('Delete?'), reason: elicit('Why?') };
    const t = resume(
      report('input_required', { inputRequests: asking }),
      { answeredKeys: ['confirm'], nextPollAt: 0 },
      () => report('input_required', { inputRequests: asking }, 4000),
    );
    await t.advance(1);
    expect(Object.keys(t.snap().context.pendingInputs)).toEqual(['reason']);
    await t.advance(3000);
    expect(Object.keys(t.snap().context.pendingInputs)).toEqual(['reason']);
  });

  it('T15: answers given before the reload but never acknowledged are sent again', async () => {
    const t = resume(report('input_required'), {
      answeredKeys: ['confirm'],
      unsent: { confirm: { action: 'accept' } },
      nextPollAt: BASE + RELOADED_AT + 500,
    });
    await t.advance(1);
    expect(t.calls.update).toEqual([{ confirm: { action: 'accept' } }]);
  });

  it("T17: a cancel intended before the reload is sent again; the status stays the server's", async () => {
    const t = resume(report('working'), {
      cancelRequested: true,
      nextPollAt: BASE + RELOADED_AT + 500,
    });
    await t.advance(1);
    expect(t.calls.cancel).toEqual([0]);
    expect(t.snap().context.cancelRequested).toBe(true);
    expect(t.snap().context.task.status).toBe('working');
  });

  it("T13: a task whose TTL passed while the page was away is asked once, and the server's verdict ends it", async () => {
    const gone = Object.assign(new Error('Task not found'), { code: -32602 });
    const t = resume(
      report('working', { ttlMs: 2000, pollIntervalMs: 500 }),
      { nextPollAt: BASE + 2400 },
      () => {
        throw gone;
      },
    );
    await t.advance(1);
    expect(t.calls.get).toHaveLength(1);
    expect(t.snap().value).toBe('gone');
  });

  it('T13: a server still saying working to a poll sent after the TTL is given up on as expired', async () => {
    const t = resume(report('working', { ttlMs: 2000, pollIntervalMs: 500 }), {
      nextPollAt: BASE + 2400,
    });
    await t.advance(1);
    expect(t.calls.get).toHaveLength(1);
    expect(t.snap().status).toBe('active');
    await t.advance(500);
    expect(t.snap().value).toBe('expired');
    expect(t.calls.get).toHaveLength(1);
  });

  it('a resumed task that ended on the server reaches the same outcome as a followed one', async () => {
    const t = resume(report('working'), { nextPollAt: 0 }, () =>
      report('completed', { result: { content: [{ type: 'text', text: 'ok' }] } }, 4500),
    );
    await t.advance(1);
    expect(t.snap().value).toBe('completed');
    expect(t.snap().status).toBe('done');
  });
});
