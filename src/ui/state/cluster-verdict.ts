/**
 * The Cluster panel's one-line verdict: whether this deployment keeps every
 * task reachable (T19), and, when it does not, why in words a newcomer
 * follows and what to switch. The page's store setting is shared with the
 * single server, whose default is memory (a task kept in one worker's
 * memory dies with it, the first lesson), so a learner who adds nodes
 * starts on per-node memory: the verdict says that this is the reason, and
 * the panel offers the switch.
 */
import type { TaskStoreKind } from '../../protocol/worker-control.ts';
import { POLICY_LABELS, type RoutingPolicy } from '../../session/cluster/routing-policy.ts';

export interface ClusterShape {
  count: number;
  store: TaskStoreKind;
  policy: RoutingPolicy;
}

export interface ClusterVerdict {
  ok: boolean;
  text: string;
  /** Shown when broken: the store that fixes it, for the panel's button. */
  fix?: TaskStoreKind;
}

export function clusterVerdict({ count, store, policy }: ClusterShape): ClusterVerdict {
  if (count === 1)
    return { ok: true, text: 'One node: the single server. Add nodes to put a balancer in front.' };
  if (store === 'indexeddb')
    return {
      ok: true,
      text: 'Correct with any policy: every node reads the one store, so any node serves any poll (T19).',
    };
  if (policy === 'sticky')
    return {
      ok: true,
      text: "Correct until a task's node dies: each node keeps its own memory, and each tasks/* goes to the node that created the task (T19).",
    };
  return {
    ok: false,
    text: `Broken: each node keeps its tasks in its own memory (the store the single server starts with), so a tasks/get the ${POLICY_LABELS[policy].toLowerCase()} balancer sends to another node answers -32602 (T19). Switch the store to one shared store, or the balancer to sticky by Mcp-Name.`,
    fix: 'indexeddb',
  };
}
