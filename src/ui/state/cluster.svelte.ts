/**
 * The cluster control over the session's `ClusterEndpoint`: how many nodes,
 * the balancer's policy, each node's state, and the per-node kill, restart
 * and cut off, and the T8 toggle. Reads the cluster itself on each of its changes (nothing is
 * mirrored); the store is the session's server-store choice, shared by
 * every node (IndexedDB) or one memory per node.
 */
import { createSubscriber } from 'svelte/reactivity';
import type { TaskStoreKind } from '../../protocol/worker-control.ts';
import {
  EARLY_HANDLE_MS,
  type ClusterEndpoint,
  type NodeStatus,
} from '../../session/cluster/cluster-endpoint.ts';
import type { RoutingPolicy } from '../../session/cluster/routing-policy.ts';
import type { PageSession } from '../../session/page-session.ts';
import { watch } from './session-subscriber.ts';

export class ClusterControls {
  readonly #cluster: ClusterEndpoint;
  /** The cluster itself, for the scenario stage's setup. */
  readonly endpoint: ClusterEndpoint;
  readonly #session: PageSession;
  readonly #watch: () => void;
  readonly #watchStore: () => void;

  constructor(cluster: ClusterEndpoint, session: PageSession) {
    this.#cluster = cluster;
    this.endpoint = cluster;
    this.#session = session;
    this.#watch = createSubscriber((update) => cluster.on('change', update));
    this.#watchStore = watch(session, 'storage');
  }

  get nodes(): readonly NodeStatus[] {
    this.#watch();
    return this.#cluster.nodes;
  }

  get count(): number {
    return this.nodes.length;
  }

  get policy(): RoutingPolicy {
    this.#watch();
    return this.#cluster.policy;
  }

  /** Where every node keeps its tasks: `indexeddb`, one store for all; `memory`, each its own. */
  get store(): TaskStoreKind {
    this.#watchStore();
    return this.#session.storage.serverStore.chosen;
  }

  setCount(count: number): void {
    this.#cluster.setNodeCount(count);
  }

  setPolicy(policy: RoutingPolicy): void {
    this.#cluster.policy = policy;
  }

  /** Switching restarts every node: per-node memory forgets its tasks. */
  setStore(kind: TaskStoreKind): void {
    this.#session.setServerStore(kind);
  }

  kill(node: number): void {
    this.#cluster.killNode(node);
  }

  restart(node: number): void {
    this.#cluster.restartNode(node);
  }

  setCut(node: number, cut: boolean): void {
    this.#cluster.setCut(node, cut);
  }

  /** The T8 toggle: on, `node` returns each handle {@link EARLY_HANDLE_MS} before its store write lands; it restarts. */
  setEarlyHandle(node: number, on: boolean): void {
    this.#cluster.setEarlyHandle(node, on ? EARLY_HANDLE_MS : 0);
  }
}
