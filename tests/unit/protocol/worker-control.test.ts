/** The page <-> worker control messages are validated, never cast (STYLE.md: the worker boundary). */
import { describe, expect, it } from 'vitest';
import { WorkerControlSchema, WorkerEventSchema } from '../../../src/protocol/worker-control.ts';

describe('worker control messages', () => {
  it('accepts a start naming a store, and a connect naming an identity', () => {
    expect(
      WorkerControlSchema.safeParse({ type: 'start', store: { kind: 'memory' } }).success,
    ).toBe(true);
    expect(
      WorkerControlSchema.safeParse({ type: 'start', store: { kind: 'indexeddb', database: 'db' } })
        .success,
    ).toBe(true);
    expect(WorkerControlSchema.safeParse({ type: 'connect', identity: 'learner' }).success).toBe(
      true,
    );
    expect(WorkerControlSchema.safeParse({ type: 'hold-jobs', held: true }).success).toBe(true);
  });

  it('refuses anything else: unknown store kinds, a database without a name, unknown types', () => {
    for (const bad of [
      { type: 'start', store: { kind: 'localStorage' } },
      { type: 'start', store: { kind: 'indexeddb' } },
      { type: 'start', store: { kind: 'indexeddb', database: '' } },
      { type: 'start' },
      { type: 'connect', identity: '' },
      { type: 'stop' },
      { type: 'hold-jobs' },
      { type: 'hold-jobs', held: 'yes' },
      'start',
      null,
    ]) {
      expect(WorkerControlSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('reads what a worker says about its store', () => {
    expect(WorkerEventSchema.parse({ type: 'ready', store: 'indexeddb' })).toEqual({
      type: 'ready',
      store: 'indexeddb',
    });
    expect(
      WorkerEventSchema.safeParse({
        type: 'storage-error',
        requested: 'indexeddb',
        message: 'QuotaExceededError',
      }).success,
    ).toBe(true);
    expect(WorkerEventSchema.safeParse({ type: 'ready', store: 'disk' }).success).toBe(false);
  });
});
