/**
 * M7 on the real server: creating a task is not idempotent. A `tools/call`
 * whose answer (the `CreateTaskResult`) was lost, re-sent under a new
 * JSON-RPC id (C8), creates a second task, while the first runs on unseen.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHarness, envelope, pollUntil, terminal, type Harness } from '../helpers/harness.ts';
import { servePort } from '../../../src/server/port-host.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

/** Sends one request on a fresh link and closes it at once: whatever the server answers is lost. */
function sendAndLoseTheAnswer(message: unknown): void {
  const channel = new MessageChannel();
  servePort(h.server, channel.port1, 'alice');
  channel.port2.postMessage(message);
  channel.port2.close();
}

describe('M7: the lost handle', () => {
  it('M7, C8: a tools/call re-sent after its answer was lost creates a second task; the first runs on', async () => {
    sendAndLoseTheAnswer({
      jsonrpc: '2.0',
      id: 'first-try',
      method: 'tools/call',
      params: {
        name: 'slow_compute',
        arguments: { seconds: 0.4, label: 'x' },
        _meta: envelope(true),
      },
    });
    // The server made the task, though its handle never reached anyone.
    const [orphan] = await vi.waitFor(async () => {
      const stored = await h.server.store.all();
      expect(stored).toHaveLength(1);
      return stored;
    });
    expect(orphan!.status).toBe('working');

    // The client, knowing nothing, re-sends the same call under a new id.
    const handle = await h.client.request(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0.4, label: 'x' } },
      { tasks: true },
    );
    expect(handle).toMatchObject({ resultType: 'task', status: 'working' });
    expect(handle['taskId']).not.toBe(orphan!.taskId);
    const stored = await h.server.store.all();
    expect(stored.map((t) => t.taskId).sort()).toEqual(
      [orphan!.taskId, String(handle['taskId'])].sort(),
    );

    // Both jobs run to the end: the orphan too, kept until its TTL though nobody follows it.
    await pollUntil(h.client, String(handle['taskId']), terminal);
    await vi.waitFor(async () =>
      expect((await h.server.store.get(orphan!.taskId))?.status).toBe('completed'),
    );
    const finished = await h.server.store.get(orphan!.taskId);
    expect(finished?.ttlMs).toBe(300_000);
    expect(finished?.result).toEqual({ content: [{ type: 'text', text: 'Computed x in 0.4 s' }] });
  });
});
