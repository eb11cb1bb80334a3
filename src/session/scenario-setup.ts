/**
 * A clean page for a scenario, on the session: no tasks or call results, no
 * armed faults, a clean link, push off, the jobs' clock running, the server
 * running with the scenario's store, the wire log emptied (kept rows stay in
 * storage). Waits on conditions (connected, nothing in flight), never on a
 * sleep.
 */
import { cleanLink } from '../net/link-conditions.ts';
import type { TaskStoreKind } from '../protocol/worker-control.ts';
import type { ClusterEndpoint } from './cluster/cluster-endpoint.ts';
import type { RoutingPolicy } from './cluster/routing-policy.ts';
import type { PageSession } from './page-session.ts';

/** How many server nodes sit behind the page's balancer, and how it routes. */
export interface ClusterSetup {
  nodes: number;
  policy: RoutingPolicy;
}

export interface ScenarioSetup {
  store: TaskStoreKind;
  declareTasks: boolean;
  /** Absent: one node, the single server. */
  cluster?: ClusterSetup;
}

const SINGLE: ClusterSetup = { nodes: 1, policy: 'round-robin' };

/** How long the dismissed tasks' last answers may take to arrive before the log is emptied anyway. */
const SETTLE_MS = 2000;

/** With `cluster` (the session's endpoint), the scenario's nodes and policy too, every node up and reachable. */
export async function prepareScenario(
  session: PageSession,
  setup: ScenarioSetup,
  cluster?: ClusterEndpoint,
): Promise<void> {
  for (const actor of session.tasks) session.dismiss(actor.getSnapshot().context.taskId);
  session.resetViews();
  session.closeConnections();
  const network = session.network;
  for (const rule of network.rules.rules) network.disarm(rule.id);
  const clean = cleanLink();
  network.setConditions('out', clean.out);
  network.setConditions('in', clean.in);
  network.goOnline();
  session.setPush(false);
  session.holdJobs(false);
  session.declareTasks = setup.declareTasks;
  const nodes = setup.cluster ?? SINGLE;
  cluster?.setNodeCount(nodes.nodes);
  if (cluster) cluster.policy = nodes.policy;
  const broken = cluster?.nodes.some((n) => !n.running || n.cut) ?? false;
  if (setup.store !== session.storage.serverStore.chosen) session.setServerStore(setup.store);
  else if (!session.server.running || broken) session.restartServer();
  await session.whenConnected();
  // Answers to the dismissed tasks' last polls would land in the emptied log as noise: let them arrive first.
  await session.whenIdle(SETTLE_MS);
  session.clearWireLog();
}
