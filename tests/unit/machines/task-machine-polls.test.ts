/**
 * How the task machine polls: the `sendPoll` entry action (`pollsBy`) makes
 * the tasks/get, and its answer comes back as a plain event. A poll is two
 * events (the timer and the answer) and creates no actor, on a simulated clock.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { pollsBy, taskMachine } from '../../../src/machines/task-machine.ts';
import type { DetailedTask } from '../../../src/protocol/task.ts';
import { BASE, created, flush, report, TASK_ID } from '../helpers/task-machine-driver.ts';

/** A task actor whose tasks/get is `get`, with every inspection event counted by type. */
function polled(get: (taskId: string) => Promise<DetailedTask>) {
  const clock = new SimulatedClock();
  const seen = new Map<string, number>();
  const processed: string[] = [];
  let root: unknown;
  const actor = createActor(taskMachine.provide({ actions: { sendPoll: pollsBy(get) } }), {
    clock,
    input: { task: created(), toolName: 'slow_compute', now: () => BASE + clock.now() },
    inspect: (event) => {
      seen.set(event.type, (seen.get(event.type) ?? 0) + 1);
      if (event.type === '@xstate.event' && event.actorRef === root)
        processed.push(event.event.type);
    },
  });
  root = actor;
  actor.start();
  return { actor, clock, seen, processed };
}

describe('taskMachine: a poll through pollsBy', () => {
  it('T12: a poll is two plain events, its timer and its answer, and creates no actor', async () => {
    const asked: string[] = [];
    const { actor, clock, seen, processed } = polled(async (taskId) => {
      asked.push(taskId);
      return report('working', {}, clock.now());
    });
    const actorsAtStart = seen.get('@xstate.actor') ?? 0;
    processed.length = 0;
    for (let i = 0; i < 3; i++) {
      clock.increment(1000);
      await flush();
    }
    expect(asked).toEqual([TASK_ID, TASK_ID, TASK_ID]);
    expect(actor.getSnapshot().context.polls).toBe(3);
    expect(processed).toEqual(
      Array.from({ length: 3 }, () => [
        'xstate.after.pollInterval.task.active.lifecycle.waiting',
        'poll.answered',
      ]).flat(),
    );
    expect(seen.get('@xstate.actor') ?? 0).toBe(actorsAtStart);
    actor.stop();
  });

  it('C8: a tasks/get that throws at once is a failed poll, retried after the backoff', async () => {
    const { actor, clock } = polled(() => {
      throw new Error('port closed');
    });
    clock.increment(1000);
    await flush();
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().matches({ active: { lifecycle: 'backoff' } })).toBe(true);
    expect(context).toMatchObject({ pollFailures: 1, lastError: { message: 'port closed' } });
    expect(context.nextPollAt).toBe(BASE + 2000);
    actor.stop();
  });

  it('T9: an answer that comes after the actor ended is dropped, without a warning', async () => {
    let answer: (task: DetailedTask) => void = () => {};
    const { actor, clock } = polled(
      () => new Promise<DetailedTask>((resolve) => (answer = resolve)),
    );
    clock.increment(1000);
    await flush();
    expect(actor.getSnapshot().matches({ active: { lifecycle: 'polling' } })).toBe(true);
    actor.send({ type: 'task.forget' });
    expect(actor.getSnapshot().status).toBe('done');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    answer(report('completed', {}, 1000));
    await flush();
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    expect(actor.getSnapshot().value).toBe('forgotten');
    expect(actor.getSnapshot().context.task.status).toBe('working');
  });
});
