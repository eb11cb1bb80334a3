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

  it('T12: reads the x-ray of the server store, beside the MCP wire, and refuses a malformed one', () => {
    expect(
      WorkerEventSchema.parse({
        type: 'task-stored',
        taskId: 'abc',
        status: 'input_required',
        lastUpdatedAt: 1,
      }),
    ).toEqual({ type: 'task-stored', taskId: 'abc', status: 'input_required', lastUpdatedAt: 1 });
    expect(WorkerEventSchema.parse({ type: 'task-deleted', taskId: 'abc' })).toEqual({
      type: 'task-deleted',
      taskId: 'abc',
    });
    for (const bad of [
      // `gone` and `expired` are client conclusions, never statuses (T6).
      { type: 'task-stored', taskId: 'abc', status: 'gone', lastUpdatedAt: 1 },
      { type: 'task-stored', taskId: 'abc', status: 'expired', lastUpdatedAt: 1 },
      { type: 'task-stored', taskId: '', status: 'working', lastUpdatedAt: 1 },
      { type: 'task-stored', taskId: 'abc', status: 'working' },
      { type: 'task-stored', taskId: 'abc', status: 'working', lastUpdatedAt: Infinity },
      { type: 'task-deleted' },
      { type: 'task-deleted', taskId: 7 },
    ]) {
      expect(WorkerEventSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
