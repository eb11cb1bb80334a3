/** T13: TTL expiry, driven by a fake clock so nothing waits for real minutes. */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.ts';

let h: Harness | undefined;
afterEach(async () => h?.close());

describe('TTL', () => {
  it('T13: past createdAt + ttlMs an unfinished task is failed; later it is purged and answers -32602', async () => {
    let now = Date.parse('2026-07-28T12:00:00Z');
    h = await createHarness({ now: () => now, purgeAfterMs: 10_000 });
    const handle = await h.client.request(
      'tools/call',
      { name: 'flash_sale_quote', arguments: {} },
      { tasks: true },
    );
    expect(handle).toMatchObject({ resultType: 'task', ttlMs: 4000 });
    const taskId = String(handle['taskId']);

    now += 3999;
    expect(await h.client.request('tasks/get', { taskId }, { tasks: true })).toMatchObject({
      status: 'working',
    });

    now += 2;
    const expired = await h.client.request('tasks/get', { taskId }, { tasks: true });
    expect(expired).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: expect.stringContaining('expired') },
    });

    now += 10_000;
    await expect(h.client.request('tasks/get', { taskId }, { tasks: true })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(
      h.client.request('tasks/cancel', { taskId }, { tasks: true }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('T13: by default a task lives 300000 ms, then stays failed for 60 s before it answers -32602', async () => {
    let now = Date.parse('2026-07-28T12:00:00Z');
    h = await createHarness({ now: () => now }); // the defaults the page's worker and the Node host use
    const handle = await h.client.request(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 600 } },
      { tasks: true },
    );
    expect(handle).toMatchObject({ resultType: 'task', ttlMs: 300_000 });
    const taskId = String(handle['taskId']);

    now += 300_000;
    expect(await h.client.request('tasks/get', { taskId }, { tasks: true })).toMatchObject({
      status: 'failed',
      error: { message: expect.stringContaining('expired') },
    });
    now += 59_999;
    expect(await h.client.request('tasks/get', { taskId }, { tasks: true })).toMatchObject({
      status: 'failed',
    });
    now += 1;
    await expect(h.client.request('tasks/get', { taskId }, { tasks: true })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("T13: a tool's own purgeAfterMs (flash_sale_quote: 4 s) wins over the server's", async () => {
    let now = Date.parse('2026-07-28T12:00:00Z');
    h = await createHarness({ now: () => now, purgeAfterMs: 60_000 });
    const handle = await h.client.request(
      'tools/call',
      { name: 'flash_sale_quote', arguments: {} },
      { tasks: true },
    );
    const taskId = String(handle['taskId']);
    now += 4000 + 3999;
    expect(await h.client.request('tasks/get', { taskId }, { tasks: true })).toMatchObject({
      status: 'failed',
    });
    now += 1;
    await expect(h.client.request('tasks/get', { taskId }, { tasks: true })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('T13, T9: a task that finished before its TTL stays completed until purged', async () => {
    let now = Date.parse('2026-07-28T12:00:00Z');
    h = await createHarness({ now: () => now, purgeAfterMs: 1000, defaultTtlMs: 2000 });
    const handle = await h.client.request(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0 } },
      { tasks: true },
    );
    const taskId = String(handle['taskId']);
    await h.server.runner.settled();
    now += 2500;
    expect(await h.client.request('tasks/get', { taskId }, { tasks: true })).toMatchObject({
      status: 'completed',
    });
    now += 1000;
    await h.server.service.sweep();
    expect(await h.server.store.get(taskId)).toBeUndefined();
  });

  it('T13: the expiry sweep fails overdue tasks and stops their jobs', async () => {
    let now = Date.parse('2026-07-28T12:00:00Z');
    h = await createHarness({ now: () => now });
    const handle = await h.client.request(
      'tools/call',
      { name: 'flash_sale_quote', arguments: {} },
      { tasks: true },
    );
    now += 5000;
    await h.server.service.sweep();
    expect((await h.server.store.get(String(handle['taskId'])))?.status).toBe('failed');
    await h.server.runner.settled();
    expect(h.server.runner.runningCount).toBe(0);
  });
});
