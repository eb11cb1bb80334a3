/**
 * The task machine while the client's link is down: it shows `reconnecting`
 * (and `offline` once a poll is due) instead of `polling` into a dead link,
 * and polls the same taskId when the link is back, never sooner than
 * pollIntervalMs after the last poll (C8, M3, T12).
 */
import { describe, expect, it } from 'vitest';
import type { DetailedTask } from '../../../src/protocol/task.ts';
import {
  BASE,
  flush,
  follow as followTask,
  report,
  TASK_ID,
} from '../helpers/task-machine-driver.ts';

/** The shared driver, with tasks/get recorded as `polls`. */
function follow(options: Parameters<typeof followTask>[0] = {}) {
  const driven = followTask({ toolName: 'slow_compute', ...options });
  return { ...driven, polls: driven.calls.get };
}

describe('taskMachine: the link region', () => {
  it('C8: connection.lost shows reconnecting with the reason; retrying records the attempt and retry time', async () => {
    const { send, snap } = follow();
    await send({ type: 'connection.lost', reason: 'connection dropped' });
    expect(snap().matches({ active: { link: 'reconnecting', lifecycle: 'waiting' } })).toBe(true);
    expect(snap().context.link).toEqual({ since: BASE, reason: 'connection dropped', attempt: 0 });
    await send({ type: 'connection.retrying', attempt: 2, retryAt: 1234 });
    expect(snap().context.link).toEqual({
      since: BASE,
      reason: 'connection dropped',
      attempt: 2,
      retryAt: 1234,
    });
    await send({ type: 'connection.restored' });
    expect(snap().matches({ active: { link: 'online' } })).toBe(true);
    expect(snap().context.link).toBeUndefined();
  });

  it('M3, T12: a poll that falls due while the link is down waits in offline, then polls the same taskId at once', async () => {
    const { advance, send, snap, polls } = follow();
    await advance(300);
    await send({ type: 'connection.lost', reason: 'network went offline' });
    await advance(5000);
    expect(polls).toHaveLength(0); // no tasks/get into a dead link
    expect(snap().matches({ active: { lifecycle: 'offline', link: 'reconnecting' } })).toBe(true);
    await send({ type: 'connection.restored' });
    expect(polls).toEqual([{ at: 5300, taskId: TASK_ID }]);
    await advance(1000);
    expect(polls.map((p) => p.at)).toEqual([5300, 6300]);
    expect(polls.every((p) => p.taskId === TASK_ID)).toBe(true);
  });

  it('T12: a link back before the poll is due changes nothing: the interval still holds', async () => {
    const { advance, send, polls } = follow();
    await advance(1000); // first poll at 1000
    await send({ type: 'connection.lost', reason: 'dropped' });
    await advance(100);
    await send({ type: 'connection.restored' });
    await advance(899);
    expect(polls.map((p) => p.at)).toEqual([1000]);
    await advance(1);
    expect(polls.map((p) => p.at)).toEqual([1000, 2000]);
  });

  it('C8: a tasks/get in flight when the link breaks stays polling (the client re-issues it) and its answer counts', async () => {
    let answer: (task: DetailedTask) => void = () => {};
    const { advance, send, snap, polls } = follow({
      poll: (n, at) => (n === 1 ? new Promise((r) => (answer = r)) : report('working', {}, at)),
    });
    await advance(1000);
    await send({ type: 'connection.lost', reason: 'dropped' });
    expect(snap().matches({ active: { lifecycle: 'polling', link: 'reconnecting' } })).toBe(true);
    await advance(3000);
    expect(polls).toHaveLength(1);
    await send({ type: 'connection.restored' });
    answer(report('working', { statusMessage: 'answered after the reconnect' }, 4000));
    await flush();
    expect(snap().context.task.statusMessage).toBe('answered after the reconnect');
    expect(snap().matches({ active: { lifecycle: 'waiting', link: 'online' } })).toBe(true);
  });

  it('T9: a push while offline still ends the task, exactly once', async () => {
    const { advance, send, snap, polls } = follow();
    await send({ type: 'connection.lost', reason: 'dropped' });
    await advance(2000);
    await send({
      type: 'task.notification',
      task: report('completed', { result: { content: [] } }, 2000),
    });
    expect(snap().value).toBe('completed');
    expect(snap().context.outcome).toBe('completed');
    await advance(3000);
    expect(polls).toHaveLength(0);
    expect(snap().value).toBe('completed');
  });

  it('T13: when the link comes back after the TTL passed, the task expires instead of polling', async () => {
    const { advance, send, snap, polls } = follow({ task: { ttlMs: 2000 } });
    await send({ type: 'connection.lost', reason: 'offline' });
    await advance(10_000);
    await send({ type: 'connection.restored' });
    expect(snap().value).toBe('expired');
    expect(polls).toHaveLength(0);
  });

  it('T13: -32602 after the reconnect (a restarted in-memory server) ends gone', async () => {
    const { advance, send, snap } = follow({
      poll: () => Promise.reject({ code: -32602, message: 'Unknown task' }),
    });
    await send({ type: 'connection.lost', reason: 'server worker killed' });
    await advance(1500);
    await send({ type: 'connection.restored' });
    await flush();
    expect(snap().value).toBe('gone');
    expect(snap().context.lastError).toEqual({ code: -32602, message: 'Unknown task' });
  });
});
