/**
 * The pure transitions every stored task goes through: each status change
 * is the lifecycle machine's (src/machines/task-lifecycle.ts), and these
 * add what the record carries in its new state.
 */
import { describe, expect, it } from 'vitest';
import {
  acceptResponses,
  CANCELLED_MESSAGE,
  EXPIRED_ERROR,
  expire,
  expiryOf,
  finish,
  requestCancel,
  requestInput,
  takeResponses,
  withPollInterval,
} from '../../../src/server/task-lifecycle.ts';
import { record } from './task-store-contract.ts';

const ask = { method: 'elicitation/create', params: { message: 'ok?' } };

describe('task lifecycle', () => {
  it('T9: a terminal task keeps its first outcome', () => {
    const done = finish(record('a'), { status: 'completed', result: { content: [] } }, 5);
    expect(finish(done, { status: 'cancelled' }, 6)).toBe(done);
    expect(finish(done, { status: 'failed', error: { code: -1, message: 'x' } }, 6).status).toBe(
      'completed',
    );
    expect(requestCancel(done, 7)).toBe(done);
  });

  it("T6: a task's pollIntervalMs may change while it runs, never once it is terminal", () => {
    const changed = withPollInterval(record('a'), 1500, 9);
    expect(changed).toMatchObject({ pollIntervalMs: 1500, lastUpdatedAt: 9 });
    const done = finish(changed, { status: 'completed', result: { content: [] } }, 10);
    expect(withPollInterval(done, 250, 11)).toBe(done);
  });

  it('T14: an input key is never reused within a task', () => {
    const asked = requestInput(record('a'), { k: ask }, 2);
    const answered = takeResponses(
      acceptResponses(asked, { k: { action: 'accept' } }, 3),
      ['k'],
      4,
    );
    expect(answered.status).toBe('working');
    expect(() => requestInput(answered, { k: ask }, 5)).toThrow(/reused/);
  });

  it('T15: only outstanding, unanswered keys are accepted', () => {
    const asked = requestInput(record('a'), { k1: ask, k2: ask }, 2);
    const once = acceptResponses(asked, { k1: { action: 'accept' }, nope: {} }, 3);
    expect(Object.keys(once.inputResponses)).toEqual(['k1']);
    const twice = acceptResponses(once, { k1: { action: 'decline' } }, 4);
    expect(twice.inputResponses['k1']).toEqual({ action: 'accept' });
  });

  it('T15: taking a partial set of answers leaves the task input_required', () => {
    const asked = requestInput(record('a'), { k1: ask }, 2);
    const more = requestInput(asked, { k2: ask }, 2);
    const partial = takeResponses(acceptResponses(more, { k1: {} }, 3), ['k1'], 4);
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests)).toEqual(['k2']);
  });

  it('T13: expiry never comes before createdAt + ttlMs', () => {
    const r = record('a', { createdAt: 0, ttlMs: 1000 });
    expect(expiryOf(r, 999, 100)).toBe('live');
    expect(expiryOf(r, 1000, 100)).toBe('expire');
    expect(expiryOf(r, 1100, 100)).toBe('purge');
    expect(expiryOf(record('b', { ttlMs: null }), 1e12, 100)).toBe('live');
  });

  it('T11: a tool result with isError: true ends the task completed, never failed', () => {
    const result = { content: [{ type: 'text' as const, text: 'no' }], isError: true };
    const asked = requestInput(record('a'), { k: ask }, 2);
    for (const live of [record('a'), asked]) {
      const done = finish(live, { status: 'completed', result }, 5);
      expect(done).toMatchObject({ status: 'completed', result, inputRequests: {} });
      expect(done).not.toHaveProperty('error');
    }
  });

  it('T10: a task failed by a JSON-RPC error carries the error and a statusMessage saying why', () => {
    const working = { ...record('a'), statusMessage: 'step 2 of 3' };
    const error = { code: -32603, message: 'Internal error: the worker crashed' };
    expect(finish(working, { status: 'failed', error }, 5)).toMatchObject({
      status: 'failed',
      error,
      statusMessage: 'Failed: Internal error: the worker crashed',
    });
  });

  it('T13: the TTL fails a running task with the expiry error, its progress text replaced by why it ended', () => {
    const r = { ...record('a', { ttlMs: 4000 }), statusMessage: 'asking supplier 5 of 10' };
    expect(expire(r, 4001)).toMatchObject({
      status: 'failed',
      error: EXPIRED_ERROR,
      statusMessage: 'Expired: its ttlMs (4000 ms) passed before it finished',
      lastUpdatedAt: 4001,
    });
    const asked = requestInput(r, { k: ask }, 2);
    expect(expire(asked, 4001)).toMatchObject({ status: 'failed', inputRequests: {} });
  });

  it('T9, T13: a task that already ended is not failed by its TTL', () => {
    const done = finish(record('a'), { status: 'completed', result: { content: [] } }, 5);
    expect(expire(done, 10_000)).toBe(done);
  });

  it('T17: a cancel request moves nothing; a cancel the job honours ends it cancelled, saying so', () => {
    const r = { ...record('a'), statusMessage: 'computing: 0 of 3 s' };
    const requested = requestCancel(r, 3);
    expect(requested).toMatchObject({ status: 'working', cancelRequested: true });
    expect(finish(requested, { status: 'cancelled' }, 4)).toMatchObject({
      status: 'cancelled',
      statusMessage: CANCELLED_MESSAGE,
    });
  });
});
