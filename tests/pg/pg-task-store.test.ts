/**
 * The PostgreSQL task store on a real server (started by global-setup.ts):
 * the same contract as the memory and IndexedDB stores, then what only a
 * store shared by several nodes must get right: migrations racing at start,
 * changes made by another node reaching subscribers (LISTEN/NOTIFY), leases
 * claimed by one node only, and updates from many nodes never lost.
 */
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { MIGRATIONS } from '../../src/server/pg/migrations.ts';
import { claimLease } from '../../src/server/task-durability.ts';
import type { TaskRecord } from '../../src/server/task-store.ts';
import { record, taskStoreContract } from '../unit/server/task-store-contract.ts';
import { freshSchema, openStore } from './fresh-store.ts';

taskStoreContract('PgTaskStore', () => openStore());

describe('PgTaskStore shared by several nodes', () => {
  it('migrates once when many nodes start at the same moment (advisory lock)', async () => {
    const schema = freshSchema();
    const stores = await Promise.all(Array.from({ length: 5 }, () => openStore(schema)));
    const client = new pg.Client(inject('pgUrl'));
    await client.connect();
    try {
      const { rows } = await client.query<{ version: number }>(
        `SELECT version FROM ${pg.escapeIdentifier(schema)}.mcp_tasks_migrations ORDER BY version`,
      );
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    } finally {
      await client.end();
    }
    await stores[0]!.create(record('a'));
    expect(await stores[4]!.get('a')).toEqual(record('a'));
  });

  it('keeps text JSON cannot hold in jsonb (a NUL) and any Unicode exactly', async () => {
    const store = await openStore();
    const odd = record('odd', { arguments: { text: 'a\u0000b \u{1F600} \uD800' } });
    await store.create(odd);
    expect(await store.get('odd')).toEqual(odd);
  });

  it("C1, M5: a change node B makes reaches node A's subscribers (LISTEN/NOTIFY)", async () => {
    const schema = freshSchema();
    const nodeA = await openStore(schema);
    const nodeB = await openStore(schema);
    const seen: TaskRecord[] = [];
    nodeA.subscribe((r) => seen.push(r));
    await nodeB.create(record('a'));
    await nodeB.update('a', (r) => ({ ...r, cancelRequested: true }));
    await expect.poll(() => seen.some((r) => r.cancelRequested)).toBe(true);
    expect(seen.every((r) => r.taskId === 'a')).toBe(true);
  });

  it("node B's write to many tasks reaches node A, each task once it is stored", async () => {
    const schema = freshSchema();
    const nodeA = await openStore(schema);
    const nodeB = await openStore(schema);
    const ids = Array.from(
      { length: 300 },
      (_, i) => `task-${String(i).padStart(3, '0')}-${'x'.repeat(30)}`,
    );
    for (const id of ids) await nodeB.create(record(id));
    const renewed = new Set<string>();
    nodeA.subscribe((r) => {
      if (r.lease?.holder === 'runner-b') renewed.add(r.taskId);
    });
    // 300 ids of 40 characters do not fit one NOTIFY payload: they go in several.
    await nodeB.updateMany(ids, (r) => ({ ...r, lease: { holder: 'runner-b', expiresAt: 9000 } }));
    await expect.poll(() => renewed.size).toBe(ids.length);
  });

  it('a node is not told twice of its own writes', async () => {
    const schema = freshSchema();
    const store = await openStore(schema);
    const other = await openStore(schema);
    const seen: string[] = [];
    store.subscribe((r) => seen.push(`${r.taskId}:${r.statusMessage ?? 'created'}`));
    await store.create(record('a'));
    await store.update('a', (r) => ({ ...r, statusMessage: 'one' }));
    await store.update('a', (r) => ({ ...r, statusMessage: 'two' }));
    // NOTIFYs arrive in commit order: once another node's later write is here, any echo of ours would be too.
    await other.create(record('marker'));
    await expect.poll(() => seen.includes('marker:created')).toBe(true);
    expect(seen).toEqual(['a:created', 'a:one', 'a:two', 'marker:created']);
  });

  it('a lease is claimed by one node only, and only once it has expired', async () => {
    const schema = freshSchema();
    const nodes = await Promise.all(Array.from({ length: 4 }, () => openStore(schema)));
    await nodes[0]!.create(record('job', { lease: { holder: 'dead-runner', expiresAt: 5000 } }));
    // Before expiry nobody gets it.
    const early = await Promise.all(
      nodes.map((node, i) => node.update('job', (r) => claimLease(r, `runner-${i}`, 4000, 3000))),
    );
    expect(early.map((r) => r?.lease?.holder)).toEqual(Array(4).fill('dead-runner'));
    // After expiry, all four race: exactly one wins, and every node sees that one.
    const late = await Promise.all(
      nodes.map((node, i) => node.update('job', (r) => claimLease(r, `runner-${i}`, 6000, 3000))),
    );
    const holders = new Set(late.map((r) => r?.lease?.holder));
    expect(holders.size).toBe(1);
    expect([...holders][0]).toMatch(/^runner-\d$/);
  });

  it('updates and updateManys from several nodes at once never lose one another', async () => {
    const schema = freshSchema();
    const one = await openStore(schema);
    const two = await openStore(schema);
    for (const id of ['a', 'b']) await one.create(record(id));
    const add = (key: string) => (r: TaskRecord) => ({
      ...r,
      issuedInputKeys: [...r.issuedInputKeys, key],
    });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        // Opposite orders: locking in id order keeps them from deadlocking.
        i % 2 ? one.updateMany(['a', 'b'], add(`m${i}`)) : two.updateMany(['b', 'a'], add(`n${i}`)),
      ),
    );
    expect((await one.get('a'))?.issuedInputKeys).toHaveLength(20);
    expect((await two.get('b'))?.issuedInputKeys).toHaveLength(20);
  });
});
