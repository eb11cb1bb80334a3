/**
 * The cluster (README "Running a cluster"): `tasks/get` under autocannon
 * through the round-robin balancer over 3 nodes on PostgreSQL, beside one
 * node on memory, both measured in this run, in interleaved rounds; then the
 * time from a SIGKILL of the node running a job to that job running again on
 * another node, beside the lease length (what a take-over must wait for at
 * least). Two more targets say where the ratio comes from: the memory node
 * behind the same balancer (the hop's share) and one PostgreSQL node without
 * the balancer (the store's share).
 *
 * Each balancer measured is a process of its own (`balancer-process.ts`), as
 * under `npm run cluster`, where it runs apart from any client: in this
 * process it would share an event loop with autocannon, and every request's
 * latency would include the load generator's own work. PostgreSQL, the nodes
 * and the balancers all share the same CPUs. The balancer's CPU time per
 * request, read from its process, says what the hop costs apart from the load.
 */
import { PgTaskStore } from '../../src/server/pg/pg-task-store.ts';
import { LEASE_MS } from '../../src/server/task-durability.ts';
import { spawnBalancer } from '../cluster/balancer-process.ts';
import { startCluster } from '../cluster/start-cluster.ts';
import { spawnNode } from '../cluster/node-process.ts';
import { stopNode } from '../cluster/start-cluster.ts';
import type { BenchPart } from './context.ts';
import { figure } from './figures.ts';
import { measure, tasksGet, type Measured } from './load-rounds.ts';
import { benchMeta, mcpHeaders } from './mcp-http.ts';

const PART = 'cluster';
const CONNECTIONS = 10;
/** How many running tasks the load polls, each connection going through them in turn. */
const POLLED_TASKS = 12;
const meta = benchMeta('bench-cluster');

/** Starts a `slow_compute` task of `seconds` and returns its id. */
async function startTask(url: string, seconds: number): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: mcpHeaders('tools/call', 'slow_compute'),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'slow_compute', arguments: { seconds }, _meta: meta },
    }),
  });
  const text = await response.text();
  const taskId = (JSON.parse(text) as { result?: { taskId?: unknown } }).result?.taskId;
  if (typeof taskId !== 'string') throw new Error(`tools/call did not make a task: ${text}`);
  return taskId;
}

/** Polls `read` every 10 ms until it holds; rejects after `timeoutMs`. */
async function until(read: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await read())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const cluster: BenchPart = {
  name: PART,
  async run(ctx) {
    const rounds = ctx.small ? 1 : 3;
    const seconds = ctx.small ? 2 : 4;
    ctx.log(`[${PART}] starting PostgreSQL, 3 nodes and the balancer, and a memory node`);
    const [shared, memory] = await Promise.all([
      startCluster({ nodes: 3 }),
      spawnNode({ name: 'memory-node', store: 'memory' }),
    ]);
    // The balancers under load, each its own process: one over the 3 PostgreSQL nodes (what
    // `npm run cluster` runs), and the same in front of the memory node alone (what the hop costs).
    const [sharedBalanced, memoryBalanced] = await Promise.all([
      spawnBalancer(
        shared.nodes.map((node) => ({ name: node.name, origin: new URL(node.url).origin })),
      ),
      spawnBalancer([{ name: memory.name, origin: new URL(memory.url).origin }]),
    ]);
    const sharedUrl = `${sharedBalanced.origin}/mcp`;
    let measured: Measured[];
    let takeoverMs: number;
    const watcher = await PgTaskStore.open({ connectionString: shared.databaseUrl, poolSize: 2 });
    try {
      // Several tasks, each connection polling them in turn, as many clients would: not one
      // task polled by everyone (which a store could answer with one read for all).
      const some = (url: string) =>
        Promise.all(Array.from({ length: POLLED_TASKS }, () => startTask(url, 600)));
      const [sharedTasks, memoryTasks] = await Promise.all([some(sharedUrl), some(memory.url)]);
      const polls = (taskIds: string[]) => taskIds.map(tasksGet);
      const first = shared.nodes[0]!;
      ctx.log(
        `[${PART}] ${rounds} round(s) of ${seconds} s of tasks/get each (${POLLED_TASKS} tasks), ${CONNECTIONS} connections: 1 memory node, the same behind the balancer, 1 PostgreSQL node alone, 3 PostgreSQL nodes behind the balancer`,
      );
      measured = await measure(
        [
          { label: 'memory', url: memory.url, pid: memory.pid, call: polls(memoryTasks) },
          {
            label: 'memory, balanced',
            url: `${memoryBalanced.origin}/mcp`,
            pid: memoryBalanced.pid,
            call: polls(memoryTasks),
          },
          { label: 'pg node', url: first.url, pid: first.pid, call: polls(sharedTasks) },
          { label: 'cluster', url: sharedUrl, pid: sharedBalanced.pid, call: polls(sharedTasks) },
        ],
        { rounds, seconds, connections: CONNECTIONS, clientName: 'bench-cluster' },
      );

      // The take-over: a job that has saved a checkpoint, its node killed.
      const job = await startTask(shared.url, 600);
      await until(
        async () => (await watcher.get(job))?.checkpoint !== undefined,
        10_000,
        'a checkpoint',
      );
      const holder = (await watcher.get(job))?.lease?.holder;
      const victim = shared.nodes.find((node) => node.name === holder);
      if (!victim) throw new Error(`no node holds the job's lease (${holder})`);
      ctx.log(`[${PART}] SIGKILL ${victim.name}, which runs the job; waiting for another node`);
      const killedAt = Date.now();
      victim.child.kill('SIGKILL');
      await until(
        async () => {
          const r = await watcher.get(job);
          return r?.resumes === 1 && r.lease !== undefined && r.lease.holder !== victim.name;
        },
        LEASE_MS * 5,
        'the take-over',
      );
      takeoverMs = Date.now() - killedAt;
    } finally {
      await watcher.close();
      await Promise.all([sharedBalanced.stop(), memoryBalanced.stop()]);
      await Promise.all([shared.stop(), stopNode(memory)]);
    }
    const [alone, balanced, pgNode, all] = measured as [Measured, Measured, Measured, Measured];
    const ref = (name: string, value: number) => ({ name: `1 memory node ${name}`, value });
    const balancedRef = (name: string, value: number) => ({
      name: `1 memory node behind the balancer ${name}`,
      value,
    });
    return [
      figure(
        PART,
        `tasks/get throughput, balancer + 3 nodes on PostgreSQL (${CONNECTIONS} connections)`,
        all.throughput,
        'req/s',
        ref('req/s', alone.throughput),
      ),
      figure(
        PART,
        'tasks/get latency p50, cluster',
        all.p50,
        'ms',
        ref('p50', alone.p50),
        'goal: at most 1.5x; autocannon records whole milliseconds; rounds interleaved',
      ),
      figure(
        PART,
        'tasks/get latency p99, cluster',
        all.p99,
        'ms',
        ref('p99', alone.p99),
        'each balancer measured runs in its own process, as under npm run cluster (not in the bench process beside autocannon)',
      ),
      figure(
        PART,
        "the balancer's share: 1 memory node behind it, p50",
        balanced.p50,
        'ms',
        ref('p50', alone.p50),
      ),
      figure(
        PART,
        "the balancer's share: 1 memory node behind it, req/s",
        balanced.throughput,
        'req/s',
        ref('req/s', alone.throughput),
      ),
      figure(
        PART,
        "the balancer's share: its own CPU per tasks/get it forwards",
        balanced.cpuPerRequestUs,
        'µs',
        ref('CPU', alone.cpuPerRequestUs),
        "the balancer process's user + system time per request, beside the memory node's own per request it answers",
      ),
      figure(
        PART,
        'the store and 3 nodes: cluster p50 beside the balanced memory node',
        all.p50,
        'ms',
        balancedRef('p50', balanced.p50),
      ),
      figure(
        PART,
        'the store alone: 1 PostgreSQL node, no balancer, p50',
        pgNode.p50,
        'ms',
        ref('p50', alone.p50),
      ),
      figure(
        PART,
        'the store alone: 1 PostgreSQL node, no balancer, req/s',
        pgNode.throughput,
        'req/s',
        ref('req/s', alone.throughput),
      ),
      figure(
        PART,
        'the store alone: server CPU per tasks/get, PostgreSQL node',
        pgNode.cpuPerRequestUs,
        'µs',
        ref('CPU', alone.cpuPerRequestUs),
        "the node process's user + system time per request it answered (PostgreSQL's own not counted)",
      ),
      figure(
        PART,
        "SIGKILL of a job's node to the job running on another node",
        takeoverMs,
        'ms',
        { name: 'lease length', value: LEASE_MS },
        'at least the rest of the lease (renewed every second) plus up to one adoption scan (1 s)',
      ),
    ];
  },
};
