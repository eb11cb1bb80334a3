import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import {
  backoffMs,
  createdAtMs,
  pollIntervalMs,
  rpcErrorCode,
  taskMachine,
} from '../../../src/machines/task-machine.ts';
import type { DetailedTask, InputRequest } from '../../../src/protocol/task.ts';
import {
  asking,
  BASE,
  created,
  flush,
  follow,
  GONE,
  report,
  TASK_ID,
} from '../helpers/task-machine-driver.ts';

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);
const never = () => new Promise<never>(() => {});

describe('taskMachine', () => {
  it('starts waiting in every region, following the taskId it was given', () => {
    const { snap } = follow();
    expect(snap().value).toEqual({
      active: { lifecycle: 'waiting', input: 'idle', cancel: 'idle', link: 'online' },
    });
    expect(snap().context).toMatchObject({
      taskId: TASK_ID,
      toolName: 'slow-report',
      polls: 0,
      cancelRequested: false,
    });
    expect(createdAtMs(snap().context)).toBe(BASE);
  });

  it('T12: waits pollIntervalMs before the first tasks/get', async () => {
    const { calls, advance, snap } = follow({ task: { pollIntervalMs: 2500 } });
    await advance(2499);
    expect(calls.get).toHaveLength(0);
    await advance(1);
    expect(calls.get).toEqual([{ at: 2500, taskId: TASK_ID }]);
    expect(snap().context.polls).toBe(1);
  });

  it('T12: defaults to 1000 ms when the CreateTaskResult has no pollIntervalMs', async () => {
    const { calls, advance } = follow({ task: { pollIntervalMs: undefined } });
    await advance(999);
    expect(calls.get).toHaveLength(0);
    await advance(1);
    expect(calls.get).toHaveLength(1);
  });

  it('T12: never polls faster than pollIntervalMs across 10 polls', async () => {
    const { calls, advance } = follow();
    await advance(10_000);
    expect(calls.get).toHaveLength(10);
    for (const gap of gaps(calls.get.map((c) => c.at))) expect(gap).toBeGreaterThanOrEqual(1000);
  });

  it('T6, T12: follows pollIntervalMs when a report changes it', async () => {
    const { calls, advance, snap } = follow({
      poll: (n) => report('working', { pollIntervalMs: n >= 3 ? 3000 : 1000 }),
    });
    await advance(3000 + 3000 * 3);
    expect(pollIntervalMs(snap().context)).toBe(3000);
    expect(gaps(calls.get.map((c) => c.at))).toEqual([1000, 1000, 3000, 3000, 3000]);
  });

  it('T18, T12: a pushed report re-arms the timer only when it changes pollIntervalMs', async () => {
    const { calls, advance, send } = follow();
    await advance(1500);
    await send({ type: 'task.notification', task: report('working', {}, 1400) });
    await advance(500);
    expect(calls.get.map((c) => c.at)).toEqual([1000, 2000]); // same interval: timer untouched
    await advance(200);
    await send({
      type: 'task.notification',
      task: report('working', { pollIntervalMs: 4000 }, 2100),
    });
    // Re-armed from the last send at 2000 (T12 paces send to send), not from the push at 2200.
    await advance(3799);
    expect(calls.get).toHaveLength(2);
    await advance(1);
    expect(calls.get.map((c) => c.at)).toEqual([1000, 2000, 6000]);
  });

  it('T14: an input request repeated on 3 polls is surfaced once', async () => {
    const { actor, advance, snap } = follow({
      poll: () => report('input_required', { inputRequests: asking('name') }),
    });
    let surfaced = 0;
    let shown = false;
    const seen = new Set<InputRequest>();
    actor.subscribe((s) => {
      const request = s.context.pendingInputs['name'];
      if (request && !shown) surfaced++;
      shown = request !== undefined;
      if (request) seen.add(request);
    });
    await advance(3000);
    expect(snap().context.polls).toBe(3);
    expect(surfaced).toBe(1);
    expect(seen.size).toBe(1); // the same object, so a form being filled in is not rebuilt
    expect(snap().context.task.status).toBe('input_required');
  });

  it('T14, T15: answering sends one tasks/update and the key is never surfaced again', async () => {
    const { actor, calls, advance, send, snap } = follow({
      poll: (n) =>
        n <= 4
          ? report('input_required', { inputRequests: asking('name') }, n)
          : report('working', {}, n),
      update: never, // ack still outstanding: polling must carry on meanwhile
    });
    await advance(1000);
    expect(Object.keys(snap().context.pendingInputs)).toEqual(['name']);
    let resurfaced = false;
    actor.subscribe((s) => (resurfaced ||= 'name' in s.context.pendingInputs));
    await send({
      type: 'task.answer',
      responses: { name: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(calls.update).toEqual([
      {
        at: 1000,
        taskId: TASK_ID,
        inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
      },
    ]);
    expect(snap().context.answeredKeys).toEqual(['name']);
    await advance(4000); // the server keeps listing it for 3 more polls before catching up
    expect(calls.get).toHaveLength(5);
    expect(resurfaced).toBe(false);
    await send({
      type: 'task.answer',
      responses: { name: { action: 'accept', content: { name: 'Bob' } } },
    });
    expect(calls.update).toHaveLength(1);
    expect(snap().context.task.status).toBe('working');
  });

  it('T15: partial answers with two keys send only the answered one; the other stays pending', async () => {
    const { calls, advance, send, snap } = follow({
      poll: (n) =>
        report('input_required', { inputRequests: n <= 2 ? asking('a', 'b') : asking('b') }, n),
    });
    await advance(1000);
    expect(Object.keys(snap().context.pendingInputs).sort()).toEqual(['a', 'b']);
    await send({
      type: 'task.answer',
      responses: { a: { action: 'accept' }, zzz: { action: 'accept' } },
    });
    expect(calls.update.map((c) => c.inputResponses)).toEqual([{ a: { action: 'accept' } }]);
    expect(Object.keys(snap().context.pendingInputs)).toEqual(['b']);
    await advance(2000);
    expect(Object.keys(snap().context.pendingInputs)).toEqual(['b']);
    expect(snap().context.task.status).toBe('input_required');
    await send({ type: 'task.answer', responses: { b: { action: 'decline' } } });
    expect(calls.update.map((c) => c.inputResponses)).toEqual([
      { a: { action: 'accept' } },
      { b: { action: 'decline' } },
    ]);
    expect(snap().context.answeredKeys).toEqual(['a', 'b']);
    expect(snap().context.pendingInputs).toEqual({});
  });

  it('T15: an answer given while a tasks/update is in flight goes out in the next one', async () => {
    let ack: () => void = () => {};
    const { calls, advance, send, snap } = follow({
      poll: () => report('input_required', { inputRequests: asking('a', 'b') }),
      update: (n) => (n === 1 ? new Promise<void>((r) => (ack = r)) : undefined),
    });
    await advance(1000);
    await send({ type: 'task.answer', responses: { a: 1 } });
    await send({ type: 'task.answer', responses: { b: 2 } });
    expect(calls.update.map((c) => c.inputResponses)).toEqual([{ a: 1 }]);
    expect(snap().context.pendingInputs).toEqual({});
    ack();
    await flush();
    await flush();
    expect(calls.update.map((c) => c.inputResponses)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(snap().matches({ active: { input: 'idle' } })).toBe(true);
  });

  it('T15: a tasks/update lost in transport is retried with the same responses', async () => {
    const { calls, advance, send, snap } = follow({
      poll: () => report('input_required', { inputRequests: asking('x') }),
      update: (n) => (n === 1 ? Promise.reject(new Error('port closed')) : undefined),
    });
    await advance(1000);
    await send({ type: 'task.answer', responses: { x: 42 } });
    expect(snap().matches({ active: { input: 'retrying' } })).toBe(true);
    await advance(backoffMs(1));
    expect(calls.update.map((c) => c.inputResponses)).toEqual([{ x: 42 }, { x: 42 }]);
    expect(snap().matches({ active: { input: 'idle' } })).toBe(true);
  });

  it('T15: a protocol error on tasks/update is recorded, not retried', async () => {
    const { calls, advance, send, snap } = follow({
      poll: () => report('input_required', { inputRequests: asking('x') }),
      update: () => Promise.reject({ code: -32603, message: 'store down' }),
    });
    await advance(1000);
    await send({ type: 'task.answer', responses: { x: 1 } });
    await advance(20_000);
    expect(calls.update).toHaveLength(1);
    expect(snap().context.lastError).toEqual({ code: -32603, message: 'store down' });
    expect(snap().context.pendingInputs).toEqual({});
  });

  it('T15: an answer given while a refused tasks/update was out still goes out', async () => {
    let refuse: () => void = () => {};
    const { calls, advance, send, snap } = follow({
      poll: () => report('input_required', { inputRequests: asking('a', 'b') }),
      update: (n) =>
        n === 1
          ? new Promise<void>(
              (_, reject) => (refuse = () => reject({ code: -32603, message: 'no' })),
            )
          : undefined,
    });
    await advance(1000);
    await send({ type: 'task.answer', responses: { a: 1 } });
    await send({ type: 'task.answer', responses: { b: 2 } });
    refuse();
    await flush();
    await flush();
    expect(calls.update.map((c) => c.inputResponses)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(snap().context.lastError).toEqual({ code: -32603, message: 'no' });
    expect(snap().matches({ active: { input: 'idle' } })).toBe(true);
  });

  it('T17: cancel sets cancelRequested, sends one tasks/cancel, and a late completed ends completed', async () => {
    const { actor, calls, advance, send, snap } = follow({
      poll: (n) =>
        n < 3 ? report('working', {}, n) : report('completed', { result: { content: [] } }, n),
    });
    await advance(1000);
    actor.send({ type: 'task.cancel' });
    actor.send({ type: 'task.cancel' }); // while the first is in flight
    await send({ type: 'task.cancel' }); // and after its ack
    expect(snap().context.cancelRequested).toBe(true);
    expect(snap().context.task.status).toBe('working'); // intent is not status
    expect(calls.cancel).toEqual([{ at: 1000, taskId: TASK_ID }]);
    expect(snap().matches({ active: { cancel: 'acknowledged', lifecycle: 'waiting' } })).toBe(true);
    await advance(2000); // the ack proved nothing: polling goes on
    expect(calls.get).toHaveLength(3);
    expect(snap().value).toBe('completed');
    expect(snap().status).toBe('done');
    expect(snap().context).toMatchObject({ outcome: 'completed', cancelRequested: true });
    expect(calls.cancel).toHaveLength(1);
  });

  it('T17: a cancel the server honours ends cancelled; a lost tasks/cancel is retried', async () => {
    const { calls, advance, send, snap } = follow({
      poll: (n) => (n < 3 ? report('working', {}, n) : report('cancelled', {}, n)),
      cancel: (n) => (n === 1 ? Promise.reject(new TypeError('fetch failed')) : undefined),
    });
    await send({ type: 'task.cancel' });
    expect(calls.cancel).toHaveLength(1);
    await send({ type: 'task.cancel' }); // while retrying: no extra request
    expect(calls.cancel).toHaveLength(1);
    await advance(backoffMs(1));
    expect(calls.cancel.map((c) => c.at)).toEqual([0, 500]);
    expect(calls.cancel.every((c) => c.taskId === TASK_ID)).toBe(true);
    await advance(3000);
    expect(snap().value).toBe('cancelled');
    expect(snap().context.outcome).toBe('cancelled');
    expect(calls.cancel).toHaveLength(2);
  });

  it.each(['completed', 'failed', 'cancelled'] as const)(
    'T9: %s is final: no more polls, later events change nothing',
    async (status) => {
      const { calls, advance, send, snap } = follow({
        poll: () =>
          report(
            status,
            status === 'failed' ? { error: { code: -32603, message: 'boom' } } : {},
            5,
          ),
      });
      await advance(1000);
      expect(snap().value).toBe(status);
      expect(snap().status).toBe('done');
      expect(snap().context.outcome).toBe(status);
      const before = snap();
      await send({ type: 'task.notification', task: report('working', {}, 9) });
      await send({ type: 'task.cancel' });
      await advance(10_000);
      expect(calls.get).toHaveLength(1);
      expect(calls.cancel).toHaveLength(0);
      expect(snap().context).toEqual(before.context);
    },
  );

  it('T13: tasks/get answered -32602 ends gone', async () => {
    const { calls, advance, snap } = follow({ poll: () => Promise.reject(GONE) });
    await advance(1000);
    expect(snap().value).toBe('gone');
    expect(snap().status).toBe('done');
    expect(snap().context).toMatchObject({ outcome: 'gone', lastError: GONE });
    await advance(10_000);
    expect(calls.get).toHaveLength(1);
  });

  it('T18: a pushed completed task ends it without another poll', async () => {
    const { calls, advance, send, snap } = follow();
    await advance(1500);
    await send({
      type: 'task.notification',
      task: report('completed', { result: { content: [{ type: 'text', text: 'done' }] } }, 1500),
    });
    expect(snap().value).toBe('completed');
    expect(snap().context.task).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'done' }] },
    });
    await advance(5000);
    expect(calls.get).toHaveLength(1);
  });

  it('T18: a push that lands while a tasks/get is in flight ends the task too', async () => {
    const { advance, send, snap } = follow({ poll: never });
    await advance(1000);
    expect(snap().matches({ active: { lifecycle: 'polling' } })).toBe(true);
    await send({
      type: 'task.notification',
      task: report('failed', { error: { code: -32603, message: 'tool crashed' } }, 1000),
    });
    expect(snap().value).toBe('failed');
  });

  it('T18: an older report arriving after a newer push does not roll the task back', async () => {
    let release: (t: DetailedTask) => void = () => {};
    const { advance, send, snap } = follow({
      poll: () => new Promise<DetailedTask>((r) => (release = r)),
    });
    await advance(1000);
    await send({
      type: 'task.notification',
      task: report('working', { statusMessage: 'step 2' }, 2000),
    });
    release(report('input_required', { inputRequests: asking('old') }, 900));
    await flush();
    expect(snap().context.task.statusMessage).toBe('step 2');
    expect(snap().context.pendingInputs).toEqual({});
  });

  it('task.forget ends forgotten: no outcome, no more requests', async () => {
    const { calls, advance, send, snap } = follow();
    await advance(1000);
    await send({ type: 'task.forget' });
    expect(snap().value).toBe('forgotten');
    expect(snap().status).toBe('done');
    expect(snap().context.outcome).toBeUndefined();
    await advance(5000);
    expect(calls.get).toHaveLength(1);
    expect(calls.cancel).toHaveLength(0);
  });

  it('default actors reject, so an unprovided machine fails loudly instead of faking a server', async () => {
    const clock = new SimulatedClock();
    const actor = createActor(taskMachine, {
      clock,
      input: { task: created(), toolName: 't', now: () => BASE },
    }).start();
    clock.increment(1000);
    await flush();
    expect(actor.getSnapshot().context.lastError).toEqual({ message: 'not provided' });
  });
});

describe('rpcErrorCode', () => {
  it('C7: reads the code of a JSON-RPC error object and nothing else', () => {
    expect(rpcErrorCode({ code: -32602, message: 'Unknown task', data: {} })).toBe(-32602);
    expect(rpcErrorCode(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBeUndefined();
    expect(rpcErrorCode(new Error('x'))).toBeUndefined();
    expect(rpcErrorCode({ code: -32602 })).toBeUndefined();
    expect(rpcErrorCode(null)).toBeUndefined();
    expect(rpcErrorCode('boom')).toBeUndefined();
  });
});
