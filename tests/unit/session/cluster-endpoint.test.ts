/**
 * The page's cluster end to end in Node: the real PageSession, client and
 * network in front of the real balancer (`ClusterEndpoint`) over three
 * in-process server nodes, on the fake clock. What each deployment of T19
 * does: a shared store serves any request on any node; per-node memory
 * behind round-robin loses tasks; sticky routing by `Mcp-Name` works until
 * its node dies; a killed node's job is taken over through its lease (T12).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WireEntry } from '../../../src/client/rpc-client.ts';
import { JOB_PROGRESS_META } from '../../../src/protocol/job-progress.ts';
import type { ClusterEndpoint } from '../../../src/session/cluster/cluster-endpoint.ts';
import { prepareScenario } from '../../../src/session/scenario-setup.ts';
import type { PacketUpdate } from '../../../src/net/net-marks.ts';
import { clusterOf, type ClusterSetup } from '../helpers/cluster-nodes.ts';
import { FAKE_TIMERS, RealStack } from '../helpers/real-stack.ts';
import type { ServerNode } from '../helpers/server-node.ts';

let stack: RealStack | undefined;
let nodes: ServerNode[] = [];
afterEach(async () => {
  await stack?.close();
  await Promise.all(nodes.map((n) => n.close()));
  stack = undefined;
  nodes = [];
  vi.useRealTimers();
});

async function open(setup: ClusterSetup): Promise<{ s: RealStack; cluster: ClusterEndpoint }> {
  vi.useFakeTimers(FAKE_TIMERS);
  vi.setSystemTime(Date.parse('2026-07-28T10:00:00Z'));
  let cluster: ClusterEndpoint | undefined;
  const s = new RealStack('memory', 1, {}, (ledger) => {
    const made = clusterOf(ledger, setup);
    nodes = made.nodes;
    cluster = made.cluster;
    return made.cluster;
  });
  stack = s;
  await s.open();
  return { s, cluster: cluster! };
}

const isError = (e: WireEntry): boolean =>
  typeof e.message === 'object' && e.message !== null && 'error' in e.message;
const code = (e: WireEntry): unknown => (e.message as { error?: { code?: number } }).error?.code;
const method = (e: WireEntry, all: readonly WireEntry[]): string | undefined => {
  const m = e.message as { method?: string; id?: unknown };
  if (m.method) return m.method;
  const request = all.find(
    (o) => o.direction === 'out' && (o.message as { id?: unknown }).id === m.id,
  );
  return (request?.message as { method?: string } | undefined)?.method;
};
/** The task's tasks/get answers, as [node, error code or status]. */
function pollAnswers(s: RealStack): [number | undefined, unknown][] {
  const wire = s.page.wire;
  return wire
    .filter((e) => e.direction === 'in' && method(e, wire) === 'tasks/get')
    .map((e) => [
      e.node,
      isError(e) ? code(e) : (e.message as { result: { status: string } }).result.status,
    ]);
}
const task = (s: RealStack) => s.page.actors[0]!.getSnapshot();

describe('the page cluster', () => {
  it('T19: a shared store serves every poll of one task from whichever node the balancer picks', async () => {
    const { s } = await open({ nodes: 3, store: 'shared', policy: 'round-robin' });
    s.call('slow_compute', { seconds: 3 }, true);
    await s.advance(6000);
    expect(task(s).value).toBe('completed');
    const answers = pollAnswers(s);
    expect(answers.every(([, status]) => typeof status === 'string')).toBe(true);
    expect(new Set(answers.map(([node]) => node))).toEqual(new Set([1, 2, 3]));
  });

  it('T19: per-node memory behind round-robin: another node answers -32602 for the task node 1 holds', async () => {
    const { s } = await open({ nodes: 3, store: 'per-node', policy: 'round-robin' });
    s.call('slow_compute', { seconds: 3 }, true);
    await s.advance(3000);
    const created = s.page.wire.find(
      (e) =>
        e.direction === 'in' &&
        (e.message as { result?: { resultType?: string } }).result?.resultType === 'task',
    );
    expect(created?.node).toBeDefined();
    const lost = pollAnswers(s).find(([, answer]) => answer === -32602);
    expect(lost?.[0]).toBeDefined();
    expect(lost?.[0]).not.toBe(created?.node);
    expect(task(s).value).toBe('gone');
  });

  it('T19: sticky by Mcp-Name keeps per-node memory correct, until its node dies', async () => {
    const { s, cluster } = await open({ nodes: 3, store: 'per-node', policy: 'sticky' });
    s.call('slow_compute', { seconds: 4 }, true);
    await s.advance(2000);
    const holder = pollAnswers(s)[0]?.[0];
    expect(holder).toBeDefined();
    expect(pollAnswers(s).every(([node, status]) => node === holder && status === 'working')).toBe(
      true,
    );
    cluster.killNode(holder!);
    await s.advance(3000);
    const after = pollAnswers(s).filter(([node]) => node !== holder);
    expect(after[0]?.[1]).toBe(-32602);
    expect(task(s).value).toBe('gone');
  });

  it("T12, T19: a killed node's job is carried on by another node from its checkpoint, once", async () => {
    const { s, cluster } = await open({ nodes: 3, store: 'shared', policy: 'round-robin' });
    s.call('slow_compute', { seconds: 5 }, true);
    await s.advance(2500);
    const running = await Promise.all(
      nodes.map(async (n, i) =>
        (await n.server()).runner.isRunning(task(s).context.taskId) ? i + 1 : 0,
      ),
    );
    const runner = running.find((n) => n > 0)!;
    expect(running.filter((n) => n > 0)).toHaveLength(1);
    cluster.killNode(runner);
    await s.advance(10_000);
    expect(task(s).value).toBe('completed');
    const last = s.page.wire.findLast(
      (e) => e.direction === 'in' && method(e, s.page.wire) === 'tasks/get',
    );
    const meta = (last?.message as { result: { _meta: Record<string, unknown> } }).result._meta;
    expect(meta[JOB_PROGRESS_META]).toMatchObject({
      resumes: 1,
      takeover: {
        from: `node ${runner}/test`,
        by: expect.not.stringContaining(`node ${runner}/`),
        checkpoint: expect.stringMatching(/of 5 s/),
      },
    });
  });

  it('T19: a node cut off from the balancer gets no request, and every sent row learns its node', async () => {
    const { s, cluster } = await open({ nodes: 3, store: 'shared', policy: 'round-robin' });
    const updates: PacketUpdate[] = [];
    s.page.session.on('packet', (u) => updates.push(u));
    const before = s.page.wire.length;
    cluster.setCut(2, true);
    s.call('slow_compute', { seconds: 2 }, true);
    await s.advance(4000);
    expect(task(s).value).toBe('completed');
    const served = new Set(updates.flatMap((u) => (u.node === undefined ? [] : [u.node])));
    expect(served).toEqual(new Set([1, 3]));
    const sent = s.page.wire.slice(before).filter((e) => e.direction === 'out' && e.net);
    expect(sent.length).toBeGreaterThan(3);
    const unrouted = sent.filter((e) => !updates.some((u) => u.packet === e.net!.packet && u.node));
    expect(unrouted.map((e) => e.message)).toEqual([]);
    expect(cluster.nodes.find((n) => n.node === 2)).toMatchObject({ running: true, cut: true });
  });

  it('T8: a node that returns the handle before its store write lands: another node answers -32602; kept, the same flow completes', async () => {
    const created = (s: RealStack) =>
      s.page.wire.find(
        (e) =>
          e.direction === 'in' &&
          (e.message as { result?: { resultType?: string } }).result?.resultType === 'task',
      );
    const broken = await open({ nodes: 2, store: 'shared', policy: 'round-robin' });
    broken.cluster.setEarlyHandle(1, 3000);
    broken.cluster.setEarlyHandle(2, 3000);
    expect(broken.cluster.earlyHandleOf(1)).toBe(3000);
    broken.s.call('slow_compute', { seconds: 2 }, true);
    await broken.s.advance(2000);
    expect(created(broken.s)?.node).toBeDefined();
    const first = pollAnswers(broken.s)[0];
    expect(first?.[1]).toBe(-32602);
    expect(first?.[0]).not.toBe(created(broken.s)?.node);
    expect(task(broken.s).value).toBe('gone');
    await stack?.close();
    await Promise.all(nodes.map((n) => n.close()));
    stack = undefined;

    const kept = await open({ nodes: 2, store: 'shared', policy: 'round-robin' });
    expect(kept.cluster.earlyHandleOf(1)).toBe(0);
    kept.s.call('slow_compute', { seconds: 2 }, true);
    await kept.s.advance(4000);
    expect(pollAnswers(kept.s)[0]?.[1]).toBe('working');
    expect(task(kept.s).value).toBe('completed');
  });

  it('T8: a scenario setup turns every early node back to storing first, and sends its first request to node 1', async () => {
    const { s, cluster } = await open({ nodes: 2, store: 'shared', policy: 'round-robin' });
    cluster.setEarlyHandle(2, 3000);
    expect(cluster.nodes.map((n) => n.earlyHandleMs)).toEqual([0, 3000]);
    // Move the balancer's round on, so node 1 is not the next pick by chance.
    s.call('slow_compute', { seconds: 1 }, true);
    await s.advance(3000);
    const setup = prepareScenario(
      s.page.session,
      { store: 'memory', declareTasks: true, cluster: { nodes: 2, policy: 'round-robin' } },
      cluster,
    );
    await s.advance(3000);
    await setup;
    expect(cluster.nodes.map((n) => n.earlyHandleMs)).toEqual([0, 0]);
    const before = s.page.wire.length;
    s.call('slow_compute', { seconds: 1 }, true);
    await s.advance(3000);
    const sent = s.page.wire.slice(before);
    const call = sent.find(
      (e) => e.direction === 'in' && (e.message as { result?: unknown }).result !== undefined,
    );
    expect(call?.node).toBe(1);
    expect(task(s).value).toBe('completed');
  });

  it('T8: a node removed and added again starts storing first', async () => {
    const { cluster } = await open({ nodes: 3, store: 'shared', policy: 'round-robin' });
    cluster.setEarlyHandle(3, 3000);
    cluster.setNodeCount(2);
    cluster.setNodeCount(3);
    expect(cluster.earlyHandleOf(3)).toBe(0);
    expect(cluster.nodes.map((n) => n.earlyHandleMs)).toEqual([0, 0, 0]);
  });

  it('C8: one node is the single server: a kill breaks the link in its words, naming no node or balancer', async () => {
    const { s } = await open({ nodes: 1, store: 'shared', policy: 'round-robin' });
    s.call('slow_compute', { seconds: 4 }, true);
    await s.advance(1200);
    s.network.killServer();
    await s.advance(1500);
    const reasons = s.network.log.events.flatMap((e) =>
      e.kind === 'link.dropped' || e.kind === 'connect.refused' ? [e.reason] : [],
    );
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(reason).not.toMatch(/balancer|node/);
    expect(reasons.join(' | ')).toMatch(/the server/);
  });

  it('C8: behind the balancer, losing every node says so', async () => {
    const { s, cluster } = await open({ nodes: 2, store: 'shared', policy: 'round-robin' });
    s.call('slow_compute', { seconds: 4 }, true);
    await s.advance(1200);
    cluster.killNode(1);
    cluster.killNode(2);
    await s.advance(1500);
    const reasons = s.network.log.events.flatMap((e) =>
      e.kind === 'link.dropped' || e.kind === 'connect.refused' ? [e.reason] : [],
    );
    expect(reasons.join(' | ')).toMatch(/no server node is (reachable behind the balancer|up)/);
  });
});
