/** The x-ray's source: a store that tells each task's status as it changes there, beside the MCP wire. */
import { describe, expect, it } from 'vitest';
import type { StoreXrayEvent } from '../../../src/protocol/worker-control.ts';
import { MemoryTaskStore } from '../../../src/server/memory-task-store.ts';
import { XrayTaskStore } from '../../../src/server/store-xray.ts';
import { record } from './task-store-contract.ts';

describe('XrayTaskStore', () => {
  it('T9: tells a status change once, not every write (a lease renewal tells nothing), and a deletion', async () => {
    const inner = new MemoryTaskStore();
    const told: StoreXrayEvent[] = [];
    const store = new XrayTaskStore(inner, (event) => told.push(event));
    await store.create(record('t1', { status: 'working' }));
    await store.update('t1', (r) => ({ ...r, lastUpdatedAt: r.lastUpdatedAt + 1 }));
    await store.update('t1', (r) => ({ ...r, status: 'completed', lastUpdatedAt: 99 }));
    await store.delete('t1');
    expect(
      told.map((e) =>
        e.type === 'task-stored' ? `${e.taskId} ${e.status}` : `${e.taskId} deleted`,
      ),
    ).toEqual(['t1 working', 't1 completed', 't1 deleted']);
    expect(told[1]).toMatchObject({ lastUpdatedAt: 99 });
  });

  it('T13: a fresh server on a kept store tells what it already holds, and a stopped one tells nothing', async () => {
    const inner = new MemoryTaskStore();
    await inner.create(record('kept', { status: 'input_required' }));
    const told: StoreXrayEvent[] = [];
    const store = new XrayTaskStore(inner, (event) => told.push(event));
    await store.tellAll();
    expect(told).toEqual([expect.objectContaining({ taskId: 'kept', status: 'input_required' })]);
    store.stop();
    await inner.update('kept', (r) => ({ ...r, status: 'working' }));
    expect(told).toHaveLength(1);
  });
});
