/**
 * The history as the client saw it: each step names the protocol status the
 * client had heard and what brought the step (a tasks/get answer, a pushed
 * notification, -32602, the TTL), with the follower's state second. Real
 * task-machine actors on a simulated clock.
 */
import { describe, expect, it } from 'vitest';
import { errorCodeOf, statusChanges, stepSeen } from '../../../src/ui/state/history-seen.ts';
import type { HistoryStep } from '../../../src/ui/state/task-history.ts';
import { recordedRun, report } from '../helpers/recorded-task-run.ts';

function seenAll(steps: readonly HistoryStep[], graph: ReturnType<typeof recordedRun>['graph']) {
  return steps.map((step, i) => stepSeen(step, steps[i - 1], graph));
}

describe('stepSeen', () => {
  it('T12, T18: names the status seen and its cause: the task as created, polls, a push, the final answer', async () => {
    const { actor, graph, advance, steps } = recordedRun([
      (at) => report('working', at),
      (at) => report('completed', at),
    ]);
    await advance(1100);
    actor.send({ type: 'task.notification', task: report('input_required', 1200) });
    await advance(3000);
    const seen = seenAll(steps(), graph);
    expect(seen[0]).toMatchObject({
      status: 'working',
      statusChanged: true,
      cause: 'CreateTaskResult: the task as created',
    });
    expect(seen.map((s) => s.cause)).toEqual([
      'CreateTaskResult: the task as created',
      'pollIntervalMs passed: tasks/get sent',
      'tasks/get answered working again',
      'notifications/tasks pushed input_required (T18)',
      'pollIntervalMs passed: tasks/get sent',
      'tasks/get answered completed',
    ]);
    expect(seen.map((s) => s.status)).toEqual([
      'working',
      'working',
      'working',
      'input_required',
      'input_required',
      'completed',
    ]);
    expect(seen.map((s) => s.statusChanged)).toEqual([true, false, false, true, false, true]);
    // The follower's state comes second, in its own words: a final by its conclusion.
    expect(seen[1]!.follower).toBe('→ lifecycle.polling');
    expect(seen.at(-1)!.follower).toBe('stopped: saw completed');
    // No cause is a machine state name.
    for (const s of seen) expect(s.cause).not.toMatch(/lifecycle\.|xstate\./);
  });

  it('T13: a TTL that passed ends on "TTL passed", the status seen still the last one heard', async () => {
    const { graph, advance, steps } = recordedRun(
      [(at) => report('working', at, { ttlMs: 1500 })],
      {
        ttlMs: 1500,
      },
    );
    await advance(3500);
    const last = steps().at(-1)!;
    expect(last.value).toBe('expired');
    expect(stepSeen(last, steps().at(-2), graph)).toEqual({
      status: 'working',
      statusChanged: false,
      cause: 'TTL passed: the client gives up (T13)',
      follower: 'gave up: TTL passed',
    });
    // Giving up on the `working` it last heard is no status change: "status changes only" lists
    // the creation alone, not the giving-up row too.
    expect(statusChanges(steps())).toEqual([steps()[0]]);
  });

  it('T13: -32602 from tasks/get is named as such; a lost tasks/get is no error answer (C8)', async () => {
    const { graph, advance, steps } = recordedRun([
      () => {
        throw new Error('link dropped');
      },
      () => {
        throw { code: -32602, message: 'Task not found' };
      },
    ]);
    await advance(4000);
    const causes = seenAll(steps(), graph).map((s) => s.cause);
    expect(causes).toContain('tasks/get lost (no answer)');
    expect(causes).toContain('backoff over: tasks/get sent');
    expect(causes.at(-1)).toBe('tasks/get answered -32602: no such task');
    expect(stepSeen(steps().at(-1)!, undefined, graph).follower).toBe(
      'gave up: server answered -32602',
    );
  });

  it("T17: a cancel is the user's step, its acknowledgement only a request", async () => {
    const { actor, graph, advance, steps } = recordedRun([(at) => report('working', at)]);
    actor.send({ type: 'task.cancel' });
    await advance(10);
    const causes = seenAll(steps(), graph).map((s) => s.cause);
    expect(causes).toEqual([
      'CreateTaskResult: the task as created',
      'you asked to cancel: tasks/cancel sent',
      'tasks/cancel acknowledged (only a request, T17)',
    ]);
    actor.send({ type: 'task.forget' });
    expect(stepSeen(steps().at(-1)!, steps().at(-2), graph)).toMatchObject({
      cause: 'you stopped following',
      follower: 'stopped following',
    });
  });

  it("reads the JSON-RPC code a step's error leads with, and none for transport trouble", () => {
    expect(errorCodeOf('-32602 Task not found')).toBe(-32602);
    expect(errorCodeOf('link dropped')).toBeUndefined();
    expect(errorCodeOf(undefined)).toBeUndefined();
  });
});

describe('status changes only', () => {
  it('T6: lists the first step, then only steps whose status differs from the row listed before', async () => {
    const { actor, advance, steps } = recordedRun([
      (at) => report('working', at),
      (at) => report('working', at),
      (at) => report('completed', at),
    ]);
    await advance(1100);
    actor.send({ type: 'task.notification', task: report('input_required', 1200) });
    actor.send({ type: 'task.notification', task: report('working', 1300) });
    await advance(4000);
    const all = steps();
    expect(all.length).toBeGreaterThan(6);
    const listed = statusChanges(all);
    expect(listed.map((s) => s.serverStatus)).toEqual([
      'working',
      'input_required',
      'working',
      'completed',
    ]);
    expect(listed[0]).toBe(all[0]);
    for (const [i, step] of listed.entries())
      if (i > 0) expect(step.serverStatus).not.toBe(listed[i - 1]!.serverStatus);
    expect(statusChanges([])).toEqual([]);
  });

  it('T13: a client that gave up after -32602 on a working it last heard lists the creation only', async () => {
    const { advance, steps } = recordedRun([
      (at) => report('working', at),
      () => {
        throw { code: -32602, message: 'Task not found' };
      },
    ]);
    await advance(4000);
    const all = steps();
    expect(typeof all.at(-1)!.value).toBe('string');
    expect(all.at(-1)!.serverStatus).toBe('working');
    expect(statusChanges(all).map((s) => s.event)).toEqual(['start']);
  });
});
