/**
 * The cluster (README "Running a cluster"): `tasks/get` under autocannon
 * through the round-robin balancer over 3 nodes on PostgreSQL, beside one
 * node on memory, both measured in this run; then the time from a SIGKILL of
 * the node running a job to that job running again on another node, beside
 * the lease length (what a take-over must wait for at least).
 *
 * The balancer runs in this process, beside autocannon; PostgreSQL and the
 * nodes are processes of their own, all on the same shared CPUs.
 */
import autocannon from 'autocannon';
import { PgTaskStore } from '../../src/server/pg/pg-task-store.ts';
import { LEASE_MS } from '../../src/server/task-durability.ts';
import { startCluster } from '../cluster/start-cluster.ts';
import { spawnNode } from '../cluster/node-process.ts';
import { stopNode } from '../cluster/start-cluster.ts';
import type { BenchPart } from './context.ts';
import { figure } from './figures.ts';
import { benchMeta, mcpHeaders } from './mcp-http.ts';

const PART = 'cluster';
const CONNECTIONS = 10;
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

/** One autocannon run; throws on any error or non-2xx answer. */
async function load(url: string, taskId: string, seconds: number): Promise<autocannon.Result> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: mcpHeaders('tasks/get', taskId),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tasks/get',
      params: { taskId, _meta: meta },
    }),
    connections: CONNECTIONS,
    duration: seconds,
  });
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0)
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx of ${result.requests.total}`,
    );
  return result;
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
    const seconds = ctx.small ? 2 : 10;
    ctx.log(`[${PART}] starting PostgreSQL, 3 nodes and the balancer, and a memory node`);
    const [shared, memory] = await Promise.all([
      startCluster({ nodes: 3 }),
      spawnNode({ name: 'memory-node', store: 'memory' }),
    ]);
    let sharedResult: autocannon.Result;
    let memoryResult: autocannon.Result;
    let takeoverMs: number;
    const watcher = await PgTaskStore.open({ connectionString: shared.databaseUrl, poolSize: 2 });
    try {
      const [sharedTask, memoryTask] = await Promise.all([
        startTask(shared.url, 600),
        startTask(memory.url, 600),
      ]);
      ctx.log(`[${PART}] ${seconds} s of tasks/get, ${CONNECTIONS} connections: one memory node`);
      await load(memory.url, memoryTask, 1);
      memoryResult = await load(memory.url, memoryTask, seconds);
      ctx.log(`[${PART}] the same through the balancer over 3 nodes on PostgreSQL`);
      await load(shared.url, sharedTask, 1);
      sharedResult = await load(shared.url, sharedTask, seconds);

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
      await Promise.all([shared.stop(), stopNode(memory)]);
    }
    const ref = (name: string, value: number) => ({ name: `1 memory node ${name}`, value });
    return [
      figure(
        PART,
        `tasks/get throughput, balancer + 3 nodes on PostgreSQL (${CONNECTIONS} connections)`,
        sharedResult.requests.average,
        'req/s',
        ref('req/s', memoryResult.requests.average),
      ),
      figure(
        PART,
        'tasks/get latency p50, cluster',
        sharedResult.latency.p50,
        'ms',
        ref('p50', memoryResult.latency.p50),
      ),
      figure(
        PART,
        'tasks/get latency p99, cluster',
        sharedResult.latency.p99,
        'ms',
        ref('p99', memoryResult.latency.p99),
        'autocannon records whole milliseconds; the balancer shares this process with autocannon',
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
