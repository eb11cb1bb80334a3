/**
 * The whole client under a bad network, on a simulated clock, for several
 * seeds: latency with jitter, loss, duplication and reordering both ways,
 * dropped links and offline spells, with and without push. Whatever
 * happens, the client polls no faster than pollIntervalMs (T12), resumes
 * the same taskId after every fault (C8, M3), asks for and answers each
 * input key once (T14, T15), and each task ends in exactly one outcome
 * matching what the server decided (T9, T17).
 */
import { describe, expect, it } from 'vitest';
import type { TaskActor } from '../../../src/client/task-follower.ts';
import { Prng } from '../../../src/net/prng.ts';
import { faultyStack } from '../helpers/faulty-stack.ts';
import type { TaskScript } from '../helpers/scripted-server.ts';

const BAD = { latencyMs: 80, jitterMs: 60, lossRate: 0.1, duplicateRate: 0.1, reorderRate: 0.1 };
const POLL_MS = 500;

interface Followed {
  actor: TaskActor;
  taskId: string;
  script: TaskScript;
  finals: string[];
  asked: Map<string, number>;
}

async function run(seed: number, push: boolean) {
  const s = await faultyStack({
    seed,
    conditions: { out: { ...BAD }, in: { ...BAD } },
    requestTimeoutMs: 1500,
  });
  s.subscription.setEnabled(push);
  const followed: Followed[] = [];
  const follow = (script: TaskScript) => {
    const actor = s.follow(script);
    const entry: Followed = {
      actor,
      taskId: actor.getSnapshot().context.taskId,
      script,
      finals: [],
      asked: new Map(),
    };
    actor.subscribe((snapshot) => {
      if (typeof snapshot.value === 'string') entry.finals.push(snapshot.value);
      // The user answers each input once, 200 ms after seeing it.
      for (const key of Object.keys(snapshot.context.pendingInputs)) {
        if (entry.asked.has(key)) continue;
        entry.asked.set(key, 1);
        s.clock.setTimeout(
          () =>
            actor.send({
              type: 'task.answer',
              responses: { [key]: { action: 'accept', content: {} } },
            }),
          200,
        );
      }
    });
    followed.push(entry);
    return entry;
  };
  const plain = follow({ workMs: 4000 });
  const input = follow({ inputAfterMs: 1500, workMs: 2000 });
  const stubborn = follow({ workMs: 3000, stubborn: true });
  const cancellable = follow({ workMs: 8000 });

  // Faults at seeded times: two dropped links and an offline spell.
  const prng = new Prng(seed * 7919);
  const faultTimes: number[] = [];
  const at = (t: number, fault: () => void) =>
    s.clock.setTimeout(() => {
      faultTimes.push(s.clock.now());
      fault();
    }, t);
  at(Math.round(prng.between(300, 2500)), () => s.network.dropConnection('soak drop 1'));
  at(Math.round(prng.between(2600, 4500)), () => s.network.goOffline(prng.between(0.5, 2)));
  at(Math.round(prng.between(5000, 7000)), () => s.network.dropConnection('soak drop 2'));
  s.clock.setTimeout(() => stubborn.actor.send({ type: 'task.cancel' }), 1000);
  s.clock.setTimeout(() => cancellable.actor.send({ type: 'task.cancel' }), 1500);

  await s.advance(30_000);
  return { s, followed, faultTimes, plain, input, stubborn, cancellable };
}

describe.each([
  [1, false],
  [2, true],
  [3, false],
  [4, true],
  [5, false],
  [6, true],
])('under faults, seed %i, push %s', (seed, push) => {
  it('T9, T17: each task ends in exactly one outcome, the one the server decided', async () => {
    const { followed, stubborn, cancellable, s } = await run(seed, push);
    for (const task of followed) {
      expect(task.actor.getSnapshot().status, task.taskId).toBe('done');
      expect(task.finals, task.taskId).toHaveLength(1);
      const server = s.server.tasks.get(task.taskId)!;
      expect(task.finals[0], task.taskId).toBe(s.server.status(server).status);
    }
    expect(stubborn.finals).toEqual(['completed']); // a cancel is only a request (T17)
    expect(stubborn.actor.getSnapshot().context.cancelRequested).toBe(true);
    expect(cancellable.finals).toEqual(['cancelled']);
  });

  it('T12: logical polls of each task are never closer than pollIntervalMs', async () => {
    const { followed, s } = await run(seed, push);
    for (const task of followed) {
      const polls = s.sent('tasks/get', task.taskId).filter((e) => e.reissueOf === undefined);
      expect(polls.length, task.taskId).toBeGreaterThan(0);
      for (let i = 1; i < polls.length; i++)
        expect(polls[i]!.at - polls[i - 1]!.at, task.taskId).toBeGreaterThanOrEqual(POLL_MS);
    }
  });

  it('C8, M3: after every fault each unfinished task is asked about again, by the same taskId', async () => {
    const { followed, faultTimes, s } = await run(seed, push);
    expect(faultTimes).toHaveLength(3);
    const created = new Set(followed.map((f) => f.taskId));
    expect(
      s.server.requests.filter((r) => r.taskId !== undefined).every((r) => created.has(r.taskId!)),
    ).toBe(true);
    for (const task of followed) {
      const endedAt =
        s.wire.findLast(
          (e) => e.direction === 'in' && JSON.stringify(e.message).includes(task.taskId),
        )?.at ?? Infinity;
      for (const fault of faultTimes) {
        if (fault >= endedAt) continue;
        const later = s.server.requests.some(
          (r) => r.method === 'tasks/get' && r.taskId === task.taskId && r.at > fault,
        );
        const pushed = s.wire.some(
          (e) =>
            e.at > fault &&
            e.direction === 'in' &&
            (e.message as { method?: string }).method === 'notifications/tasks' &&
            JSON.stringify(e.message).includes(task.taskId),
        );
        expect(later || pushed, `${task.taskId} after the fault at ${fault}`).toBe(true);
      }
    }
  });

  it('T14, T15: the input key is asked once, answered by one tasks/update, applied once', async () => {
    const { input, s } = await run(seed, push);
    const key = `${input.taskId}-q1`;
    expect(input.asked.get(key)).toBe(1);
    const updates = s.sent('tasks/update', input.taskId).filter((e) => e.reissueOf === undefined);
    expect(updates).toHaveLength(1);
    expect(
      Object.keys(
        (updates[0]!.message as { params: { inputResponses: object } }).params.inputResponses,
      ),
    ).toEqual([key]);
    expect(s.server.tasks.get(input.taskId)!.applied).toBe(1);
    expect(input.finals).toEqual(['completed']);
  });
});

describe('a killed in-memory server', () => {
  it('T13: the restarted server no longer knows the task: the client ends gone with -32602, once', async () => {
    const s = await faultyStack();
    const actor = s.follow({ workMs: 60_000 });
    const finals: string[] = [];
    actor.subscribe((snapshot) => {
      if (typeof snapshot.value === 'string') finals.push(snapshot.value);
    });
    await s.advance(1200);
    s.network.killServer();
    await s.advance(3000);
    expect(actor.getSnapshot().matches({ active: { link: 'reconnecting' } })).toBe(true);
    expect(actor.getSnapshot().matches({ active: { lifecycle: 'offline' } })).toBe(true); // not polling into nothing
    s.network.restartServer();
    await s.advance(5000);
    expect(finals).toEqual(['gone']);
    expect(actor.getSnapshot().context.lastError).toMatchObject({ code: -32602 });
  });
});
