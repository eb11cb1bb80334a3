/**
 * A clean page for a scenario, on the session: no tasks or call results, no
 * armed faults, a clean link, push off, the jobs' clock running, the server
 * running with the scenario's store, every cluster node storing before it
 * answers (the T8 toggle off) and the balancer's round from node 1, the wire
 * log emptied (kept rows stay in storage). Waits on conditions (connected,
 * nothing in flight), never on a sleep.
 */
import { cleanLink } from '../net/link-conditions.ts';
import { TaskStoreKindSchema, type TaskStoreKind } from '../protocol/worker-control.ts';
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
  network.clearRules();
  const clean = cleanLink();
  network.setConditions('out', clean.out);
  network.setConditions('in', clean.in);
  network.goOnline();
  session.setPush(false);
  session.holdJobs(false);
  session.declareTasks = setup.declareTasks;
  const nodes = setup.cluster ?? SINGLE;
  cluster?.setNodeCount(nodes.nodes);
  if (cluster) {
    cluster.policy = nodes.policy;
    storeFirstEverywhere(cluster);
  }
  const broken = cluster?.nodes.some((n) => !n.running || n.cut) ?? false;
  if (setup.store !== session.storage.serverStore.chosen) session.setServerStore(setup.store);
  else if (!session.server.running || broken) session.restartServer();
  await session.whenConnected();
  // Answers to the dismissed tasks' last polls would land in the emptied log as noise: let them arrive first.
  await session.whenIdle(SETTLE_MS);
  session.clearWireLog();
  // The scenario's first request goes to node 1, so its narration can say which node does what.
  cluster?.restartRotation();
}

/**
 * Turns the T8 toggle off on every node (each one it was on for restarts), so
 * no scenario leaves a node answering before its write lands: before a
 * scenario's first step, and when the learner closes a run midway.
 */
export function storeFirstEverywhere(cluster: ClusterEndpoint): void {
  for (const { node, earlyHandleMs } of cluster.nodes)
    if (earlyHandleMs > 0) cluster.setEarlyHandle(node, 0);
}

/** Where the store the learner chose before the first scenario is kept across a reload (sessionStorage). */
const STORE_BEFORE_KEY = 'mcp-tasks-playground:store-before-scenario';

/** What {@link ScenarioStoreKeeper} needs of a key-value store (sessionStorage in the page). */
export type KeptValues = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * A scenario may switch the server's store (`kill-durable-store` runs on
 * IndexedDB); closing it gives the learner back the store they had chosen
 * before the first scenario, instead of leaving the scenario's. The choice
 * is kept in `kept` so a scenario that reloads the page still restores it.
 */
export class ScenarioStoreKeeper {
  readonly #session: Pick<PageSession, 'storage' | 'setServerStore'>;
  readonly #kept: KeptValues | undefined;

  constructor(session: Pick<PageSession, 'storage' | 'setServerStore'>, kept?: KeptValues) {
    this.#session = session;
    this.#kept = kept;
  }

  /** A scenario is about to set its page up: the learner's store is noted, once. */
  entering(): void {
    if (this.#kept?.getItem(STORE_BEFORE_KEY) === null)
      this.#kept.setItem(STORE_BEFORE_KEY, this.#session.storage.serverStore.chosen);
  }

  /** The scenario was closed: the store chosen before it comes back (the server restarts if it differs). */
  left(): void {
    const before = TaskStoreKindSchema.safeParse(this.#kept?.getItem(STORE_BEFORE_KEY));
    this.#kept?.removeItem(STORE_BEFORE_KEY);
    if (before.success && before.data !== this.#session.storage.serverStore.chosen)
      this.#session.setServerStore(before.data);
  }
}
