/** The pure transitions every stored task goes through. */
import { describe, expect, it } from 'vitest';
import {
  acceptResponses,
  expiryOf,
  finish,
  requestCancel,
  requestInput,
  takeResponses,
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
});
