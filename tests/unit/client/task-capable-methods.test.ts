/**
 * T5: only `tools/call` is task-capable. The page's client refuses a task
 * handle in answer to any other method, and the real server never sends one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getTask } from '../../../src/client/task-lookup.ts';
import { clientAnswering } from '../helpers/fake-link.ts';
import { createHarness, type Harness } from '../helpers/harness.ts';

const handle = {
  resultType: 'task',
  taskId: 't-1',
  status: 'working',
  createdAt: '2026-07-28T10:00:00.000Z',
  lastUpdatedAt: '2026-07-28T10:00:00.000Z',
  ttlMs: 60_000,
};

describe('T5: a task handle is valid only for tools/call', () => {
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('T5: the client treats a task handle answering tasks/get, tools/list or server/discover as an invalid response', async () => {
    const client = await clientAnswering(() => handle);
    for (const method of ['tasks/get', 'tools/list', 'server/discover']) {
      await expect(
        client.request(method, { taskId: 't-1' }, { tasks: true }),
      ).rejects.toMatchObject({ kind: 'invalid-response', message: expect.stringContaining('T5') });
    }
    // Following a task by id (a second tab, M5) gets the same refusal, not a task.
    await expect(getTask(client, 't-1')).rejects.toMatchObject({ kind: 'invalid-response' });
    client.close();
  });

  it('T5: the same handle answering tools/call is accepted', async () => {
    const client = await clientAnswering(() => handle);
    await expect(
      client.request('tools/call', { name: 'slow_compute', arguments: {} }, { tasks: true }),
    ).resolves.toMatchObject({ resultType: 'task', taskId: 't-1' });
    client.close();
  });

  it('T5: with the extension declared, the real server answers every other method with resultType "complete"', async () => {
    h = await createHarness();
    const c = h.client;
    const { taskId } = (await c.request(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 5 } },
      { tasks: true },
    )) as { taskId: string };
    const answers = [
      await c.request('server/discover', {}, { tasks: true }),
      await c.request('tools/list', {}, { tasks: true }),
      await c.request('tasks/get', { taskId }, { tasks: true }),
      await c.request('tasks/update', { taskId, inputResponses: {} }, { tasks: true }),
      await c.request('tasks/cancel', { taskId }, { tasks: true }),
    ];
    for (const answer of answers) expect(answer['resultType']).toBe('complete');
  });
});
