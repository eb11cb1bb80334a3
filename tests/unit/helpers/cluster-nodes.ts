/**
 * A cluster of in-process server nodes for the real stack: each node a
 * `ServerNode` (the playground server over an in-process MessageChannel),
 * behind the page's real balancer (`ClusterEndpoint`). `shared` gives every
 * node one store (as one IndexedDB database is shared by the page's
 * workers); `per-node` gives each its own memory.
 */
import { MemoryTaskStore } from '../../../src/server/memory-task-store.ts';
import type { PlaygroundServerOptions } from '../../../src/server/playground-server.ts';
import { ClusterEndpoint } from '../../../src/session/cluster/cluster-endpoint.ts';
import type { RoutingPolicy } from '../../../src/session/cluster/routing-policy.ts';
import type { Ledger } from './ledger.ts';
import { ServerNode } from './server-node.ts';

export interface ClusterSetup {
  nodes: number;
  store: 'shared' | 'per-node';
  policy: RoutingPolicy;
  options?: PlaygroundServerOptions;
}

/** The balancer over `setup.nodes` nodes; `nodes` lists every node made, for closing them. */
export function clusterOf(
  ledger: Ledger,
  setup: ClusterSetup,
): { cluster: ClusterEndpoint; nodes: ServerNode[] } {
  const shared = setup.store === 'shared' ? new MemoryTaskStore() : undefined;
  const nodes: ServerNode[] = [];
  const cluster = new ClusterEndpoint({
    nodes: setup.nodes,
    policy: setup.policy,
    seed: 7,
    makeNode: (node) => {
      const made = new ServerNode('memory', ledger, {
        ...setup.options,
        ...(shared ? { store: shared } : {}),
        runner: { leaseMs: 3000, heartbeatMs: 1000, holder: `node ${node}/test` },
      });
      nodes.push(made);
      return made;
    },
  });
  return { cluster, nodes };
}
