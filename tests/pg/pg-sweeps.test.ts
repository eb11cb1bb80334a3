/**
 * T13's expiry sweep run by many nodes on one PostgreSQL store at the same
 * moment, as every node of a cluster does once a second: each overdue task
 * fails once, finished tasks keep their outcome, purged tasks are gone, and
 * no sweep fails on what another one did first.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPlaygroundServer,
  type PlaygroundServer,
} from '../../src/server/playground-server.ts';
import { record } from '../unit/server/task-store-contract.ts';
import { freshSchema, openStore } from './fresh-store.ts';

const servers: PlaygroundServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const NOW = 10_000_000;

describe('T13 sweeps on a shared PostgreSQL store', () => {
  it('T13: five nodes sweeping at once expire each overdue task once and purge the long-gone', async () => {
    const schema = freshSchema();
    const stores = await Promise.all(Array.from({ length: 5 }, () => openStore(schema)));
    for (const store of stores)
      servers.push(
        createPlaygroundServer({
          store,
          now: () => NOW,
          sweepIntervalMs: 0,
          adoptIntervalMs: 0,
          purgeAfterMs: 60_000,
        }),
      );
    const overdue = Array.from({ length: 20 }, (_, i) =>
      record(`overdue-${i}`, { createdAt: NOW - 2000, ttlMs: 1000 }),
    );
    const done = record('done', {
      createdAt: NOW - 2000,
      ttlMs: 1000,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'kept' }] },
    });
    const gone = record('gone', { createdAt: NOW - 100_000, ttlMs: 1000 });
    const live = record('live', { createdAt: NOW - 10, ttlMs: 60_000 });
    for (const r of [...overdue, done, gone, live]) await stores[0]!.create(r);

    await Promise.all(servers.map((server) => server.service.sweep()));

    const after = new Map((await stores[0]!.all()).map((r) => [r.taskId, r]));
    for (const r of overdue)
      expect(after.get(r.taskId)).toMatchObject({
        status: 'failed',
        error: { message: expect.stringMatching(/expired/i) },
      });
    expect(after.get('done')).toEqual(done);
    expect(after.get('live')).toEqual(live);
    expect(after.has('gone')).toBe(false);
    // Idempotent: one more sweep, after them all, changes nothing.
    await servers[1]!.service.sweep();
    expect(await stores[0]!.all()).toEqual([...after.values()]);
  });
});
