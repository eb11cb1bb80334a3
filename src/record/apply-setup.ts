/**
 * A setup and the live page: read the page's setup now (what "Copy link"
 * and a recording's `setup` hold), and apply one read from an address. The
 * network's part (seed, conditions, rules), the cluster's shape and the
 * declare switch apply before the session starts, so even its first
 * messages draw the same fates on both pages; the store applies once it has
 * started (choosing another store restarts the server).
 */
import type { FaultRule } from '../net/fault-rules.ts';
import type { ClusterEndpoint } from '../session/cluster/cluster-endpoint.ts';
import type { PageSession } from '../session/page-session.ts';
import type { RunSetup } from './run-setup.ts';
import type { SharedSetup } from './setup-address.ts';

/** Which cluster the page runs: absent for a remote server. */
type Cluster = Pick<ClusterEndpoint, 'nodes' | 'policy' | 'setNodeCount'>;

function plainRule(rule: FaultRule): FaultRule {
  return JSON.parse(JSON.stringify(rule)) as FaultRule;
}

/**
 * The page's setup now; `remoteUrl` when it talks to the learner's own
 * server (never its token). Its rules are this run's: armed still, or
 * already fired (a link copied after a drop still replays the drop).
 */
export function currentSetup(
  session: PageSession,
  cluster: Cluster | undefined,
  remoteUrl: string | undefined,
): RunSetup {
  const store = session.storage.serverStore.chosen;
  return {
    seed: session.network.seed,
    link: {
      out: { ...session.network.conditions.out },
      in: { ...session.network.conditions.in },
    },
    rules: session.network.rules.ofThisRun.map(plainRule),
    store,
    cluster: {
      nodes: cluster?.nodes.length ?? 1,
      policy: cluster?.policy ?? 'round-robin',
      store,
    },
    declareTasks: session.declareTasks,
    server: remoteUrl === undefined ? { kind: 'built-in' } : { kind: 'remote', url: remoteUrl },
  };
}

/** Applies what must be in place before `session.start()`: seed, conditions, rules (in order), cluster, declare switch. */
export function applyBeforeStart(
  session: PageSession,
  cluster: Cluster | undefined,
  setup: SharedSetup,
): void {
  const { network } = session;
  if (setup.seed !== undefined) network.reseed(setup.seed);
  if (setup.out) network.setConditions('out', setup.out);
  if (setup.in) network.setConditions('in', setup.in);
  for (const rule of setup.rules ?? []) network.arm(rule.trigger, rule.then);
  if (cluster && setup.nodes !== undefined) cluster.setNodeCount(setup.nodes);
  if (cluster && setup.policy !== undefined) cluster.policy = setup.policy;
  if (setup.declareTasks !== undefined) session.declareTasks = setup.declareTasks;
}

/** Applies the store once the session has started (a no-op when it is the store in use). */
export function applyAfterStart(session: PageSession, setup: SharedSetup): void {
  if (setup.store !== undefined) session.setServerStore(setup.store);
}
