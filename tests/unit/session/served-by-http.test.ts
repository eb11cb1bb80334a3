/**
 * The node column behind a remote balancer: `npm run cluster`'s balancer
 * names the node that served each answer in `x-served-by`, and the page's
 * wire log shows it as the node of the answer and of the request it answers
 * (T19). Real HTTP: the project's balancer (`scripts/cluster/balancer.ts`)
 * round-robin over two names for one real Node host, so every poll is
 * answered (one store) while the names alternate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBalancer, type Balancer } from '../../../scripts/cluster/balancer.ts';
import type { WireEntry } from '../../../src/client/rpc-client.ts';
import type { PacketUpdate } from '../../../src/net/net-marks.ts';
import { httpSummary } from '../../../src/net/http-facts.ts';
import { startNodeHost, type NodeHost } from '../../../src/server/node-host.ts';
import { PageSession } from '../../../src/session/page-session.ts';
import { RemoteEndpoint } from '../../../src/session/remote-endpoint.ts';
import { nodeOfServedBy } from '../../../src/session/served-by.ts';
import { MemoryPageStore } from '../../../src/store/memory-page-store.ts';

describe('x-served-by: the node column behind a remote balancer', () => {
  it('T19: node names as npm run cluster sends them become the node column; anything else does not', () => {
    expect(nodeOfServedBy('node-2')).toBe(2);
    expect(nodeOfServedBy('Node 3')).toBe(3);
    expect(nodeOfServedBy('5')).toBe(5);
    for (const other of [undefined, '', 'node-0', 'node-6', 'east-1', 'node-2x', '12'])
      expect(nodeOfServedBy(other)).toBeUndefined();
  });

  let host: NodeHost;
  let balancer: Balancer;
  beforeAll(async () => {
    host = await startNodeHost({ host: '127.0.0.1', port: 0 });
    const origin = new URL(host.url).origin;
    balancer = await startBalancer([
      { name: 'node-1', origin },
      { name: 'node-2', origin },
    ]);
  });
  afterAll(async () => {
    await balancer.close();
    await host.close();
  });

  it('T19: each answer names its node, and the request it answers learns the same node', async () => {
    const session = new PageSession({
      endpoint: new RemoteEndpoint({ url: new URL(`${balancer.origin}/mcp`) }),
      pageStore: new MemoryPageStore(),
      preferences: undefined,
      clientName: 'served-by-test',
    });
    const wire: WireEntry[] = [];
    const updates: PacketUpdate[] = [];
    session.on('wire', (entry) => wire.push(entry));
    session.on('packet', (update) => updates.push(update));
    await session.start();
    const outcome = await session.callTool({
      name: 'slow_compute',
      arguments: { seconds: 0.5 },
      tasks: true,
    });
    expect(outcome.kind).toBe('task');
    await expect
      .poll(() => session.tasks[0]?.getSnapshot().context.task.status, { timeout: 15_000 })
      .toBe('completed');
    await session.close();

    const received = wire.filter((e) => e.direction === 'in' && e.http);
    expect(received.length).toBeGreaterThan(2);
    // Every answer's node is the one its x-served-by named, and both names answered.
    for (const e of received) expect(e.node).toBe(nodeOfServedBy(e.http!.servedBy));
    expect(new Set(received.map((e) => e.node))).toEqual(new Set([1, 2]));
    expect(httpSummary(received[0]!.http!)).toMatch(/served by node-[12]/);
    // Each request's row learns the node of its answer.
    const idOf = (e: WireEntry) => (e.message as { id?: unknown }).id;
    for (const e of received) {
      const request = wire.find((o) => o.direction === 'out' && idOf(o) === idOf(e) && o.net);
      expect(request, `the request answered by ${JSON.stringify(e.message)}`).toBeDefined();
      expect(updates.find((u) => u.packet === request!.net!.packet && u.node)?.node).toBe(e.node);
    }
  });
});
