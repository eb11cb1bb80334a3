/**
 * Several server nodes behind a load balancer in the page, as one
 * {@link ServerEndpoint}: the session and the client keep one Transport per
 * connection ({@link BalancedLink}), and the balancer forwards each request
 * to the node its policy picks. Each node is an endpoint of its own (a Web
 * Worker on the page, an in-process server in tests), named `node 1` ...
 * `node 5`, so its job runner leases under that name. One node is today's
 * single server.
 */
import type { FaultLog } from '../../net/fault-log.ts';
import type { Transport } from '../../net/transport.ts';
import { httpHeadersFor } from '../../protocol/envelope.ts';
import type { JsonRpcRequest } from '../../protocol/jsonrpc.ts';
import type { StartMessage, WorkerEvent } from '../../protocol/worker-control.ts';
import { Emitter } from '../emitter.ts';
import type { ServedReport, ServerEndpoint } from '../server-endpoint.ts';
import { BalancedLink } from './balanced-link.ts';
import { NodePicker, type RoutingPolicy } from './routing-policy.ts';
import { TaskPlacement } from './task-placement.ts';

export const MIN_NODES = 1;
export const MAX_NODES = 5;
/**
 * How long a node with the T8 toggle on ({@link ClusterEndpoint.setEarlyHandle}) keeps a task
 * unwritten after returning its handle: longer than a first poll's wait, so another node
 * serving that poll finds nothing.
 */
export const EARLY_HANDLE_MS = 3000;

/** One node as the page shows it. */
export interface NodeStatus {
  /** 1 to 5. */
  node: number;
  running: boolean;
  /** Cut off from the balancer (partitioned): running, unreachable. */
  cut: boolean;
  /** 1 for its first worker, +1 per restart. */
  generation: number;
  /** The T8 toggle: ms its store write lands after the handle; 0 when it stores first. */
  earlyHandleMs: number;
}

/** A node was killed, started, cut off or let back in (the fault log records it). */
export interface NodeChange {
  kind: 'node.killed' | 'node.started' | 'node.cut' | 'node.rejoined';
  node: number;
  generation: number;
}

interface ClusterEvents {
  /** Nodes, policy or a node's state changed. */
  change: undefined;
  node: NodeChange;
  served: ServedReport;
  event: WorkerEvent;
}

export interface ClusterOptions {
  /** Makes node `n`'s endpoint (a Web Worker on the page). */
  makeNode: (node: number) => ServerEndpoint;
  /** The random policy's seed. */
  seed?: number;
  nodes?: number;
  policy?: RoutingPolicy;
}

interface Node {
  endpoint: ServerEndpoint;
  cut: boolean;
}

const DEFAULT_START: StartMessage = { type: 'start', store: { kind: 'memory' } };

export class ClusterEndpoint implements ServerEndpoint {
  readonly #events = new Emitter<ClusterEvents>();
  readonly #makeNode: (node: number) => ServerEndpoint;
  readonly #nodes: Node[] = [];
  readonly #links = new Set<BalancedLink>();
  readonly #placement = new TaskPlacement();
  readonly #picker: NodePicker;
  #policy: RoutingPolicy;
  #start: StartMessage = DEFAULT_START;
  /** Whether `start` was called: nodes added later start at once. */
  #started = false;
  #jobsHeld = false;
  /** Nodes told to break T8 on purpose: node -> ms their store write lands after the handle. */
  readonly #earlyHandle = new Map<number, number>();

  constructor(options: ClusterOptions) {
    this.#makeNode = options.makeNode;
    this.#picker = new NodePicker(options.seed ?? 1);
    this.#policy = options.policy ?? 'round-robin';
    this.#grow(clampNodes(options.nodes ?? 1));
  }

  /** Listens to one kind of event; returns the unsubscribe. */
  on<K extends keyof ClusterEvents>(
    type: K,
    listener: (payload: ClusterEvents[K]) => void,
  ): () => void {
    return this.#events.on(type, listener);
  }

  get nodes(): readonly NodeStatus[] {
    return this.#nodes.map((n, i) => ({
      node: i + 1,
      running: n.endpoint.running,
      cut: n.cut,
      generation: n.endpoint.generation,
      earlyHandleMs: this.earlyHandleOf(i + 1),
    }));
  }

  get policy(): RoutingPolicy {
    return this.#policy;
  }

  set policy(policy: RoutingPolicy) {
    this.#policy = policy;
    this.#events.emit('change', undefined);
  }

  /** The nodes the balancer can reach now. */
  get live(): number[] {
    return this.nodes.filter((n) => n.running && !n.cut).map((n) => n.node);
  }

  /** 1 to 5 nodes: new ones start with the cluster's store; removed ones are killed. */
  setNodeCount(count: number): void {
    const target = clampNodes(count);
    if (target > this.#nodes.length) this.#grow(target);
    while (this.#nodes.length > target) {
      const node = this.#nodes.length;
      this.killNode(node);
      this.#nodes.pop();
      // A node added later is a new one: it stores first.
      this.#earlyHandle.delete(node);
    }
    this.#events.emit('change', undefined);
  }

  killNode(node: number): void {
    const n = this.#nodes[node - 1];
    if (!n?.endpoint.running) return;
    const generation = n.endpoint.generation;
    n.endpoint.kill(`node ${node} killed`);
    this.#changed({ kind: 'node.killed', node, generation });
  }

  /** Kills node `node` if it runs and starts a fresh worker there (empty memory); it rejoins. */
  restartNode(node: number): void {
    const n = this.#nodes[node - 1];
    if (!n) return;
    if (n.endpoint.running) this.killNode(node);
    n.cut = false;
    n.endpoint.restart();
    this.#changed({ kind: 'node.started', node, generation: n.endpoint.generation });
  }

  /**
   * Cuts node `node` off from the balancer, or lets it back: a cut node keeps
   * running (its jobs, its leases on a shared store), but no request reaches
   * it and its links break.
   */
  setCut(node: number, cut: boolean): void {
    const n = this.#nodes[node - 1];
    if (!n || n.cut === cut) return;
    n.cut = cut;
    if (cut) for (const link of this.#links) link.lose(node, `node ${node} cut off`);
    this.#changed({
      kind: cut ? 'node.cut' : 'node.rejoined',
      node,
      generation: n.endpoint.generation,
    });
  }

  /**
   * The T8 toggle: node `node` returns each task's handle `ms` before its store write lands
   * (0: stored first, correct). Takes effect on that node's next start; a running node is
   * restarted with it (its memory goes, a shared store keeps every task).
   */
  setEarlyHandle(node: number, ms: number): void {
    const n = this.#nodes[node - 1];
    if (!n || this.earlyHandleOf(node) === Math.max(0, Math.round(ms))) return;
    if (ms > 0) this.#earlyHandle.set(node, Math.round(ms));
    else this.#earlyHandle.delete(node);
    n.endpoint.configure(this.#startFor(node));
    if (this.#started && n.endpoint.running) this.restartNode(node);
    else this.#events.emit('change', undefined);
  }

  /** The ms node `node`'s store write lands after its handle; 0 when it keeps T8. */
  earlyHandleOf(node: number): number {
    return this.#earlyHandle.get(node) ?? 0;
  }

  /** The balancer starts its round again from node 1 (and random from its seed), so a scenario plays alike each time. */
  restartRotation(): void {
    this.#picker.restart();
  }

  // ServerEndpoint: the cluster as one server.

  get running(): boolean {
    return this.#nodes.some((n) => n.endpoint.running);
  }

  /** Counts every node's starts, so a restart of any node moves it on. */
  get generation(): number {
    return this.#nodes.reduce((sum, n) => sum + n.endpoint.generation, 0);
  }

  start(start: StartMessage): void {
    this.#start = start;
    this.#started = true;
    this.#nodes.forEach((n, i) => n.endpoint.start(this.#startFor(i + 1)));
    this.#events.emit('change', undefined);
  }

  configure(start: StartMessage): void {
    this.#start = start;
    this.#nodes.forEach((n, i) => n.endpoint.configure(this.#startFor(i + 1)));
  }

  async connect(identity: string): Promise<Transport> {
    if (this.live.length === 0) throw new Error(this.#noneReachable());
    const link = new BalancedLink({
      route: (request) => this.#route(request),
      open: (node) => {
        const n = this.#nodes[node - 1];
        if (!n || n.cut) return Promise.reject(new Error(`node ${node} is unreachable`));
        return n.endpoint.connect(identity);
      },
      served: (message, node, direction) => {
        if (direction === 'in') this.#placement.learn(message, node);
        // One node is the single server: its messages name no node, and the page looks as before.
        if (!this.#single) this.#events.emit('served', { message, node, direction });
      },
      closed: (link) => this.#links.delete(link),
      nameOf: (node) => (this.#single ? 'the server' : `node ${node}`),
      noneReachable: () => this.#noneReachable(),
    });
    this.#links.add(link);
    return link;
  }

  /** Kills every node (the network logs it as the server's kill, so no node events). */
  kill(reason?: string): void {
    for (const n of this.#nodes) n.endpoint.kill(reason);
    this.#events.emit('change', undefined);
  }

  /** A fresh worker on every node, none cut off. */
  restart(): void {
    for (const n of this.#nodes) {
      n.cut = false;
      n.endpoint.restart();
    }
    this.#events.emit('change', undefined);
  }

  holdJobs(held: boolean): void {
    this.#jobsHeld = held;
    for (const n of this.#nodes) n.endpoint.holdJobs(held);
  }

  onEvent(listener: (event: WorkerEvent) => void): () => void {
    return this.#events.on('event', listener);
  }

  release(reason: string): void {
    for (const n of this.#nodes) n.endpoint.release(reason);
  }

  /** Records every node's kill, start, cut and rejoin in `log` (the network's fault log); returns the unsubscribe. */
  reportTo(log: FaultLog, now: () => number): () => void {
    return this.on('node', (change) => log.add(now(), change));
  }

  onServed(listener: (report: ServedReport) => void): () => void {
    return this.#events.on('served', listener);
  }

  /** One node is the single server: nothing it says names a node or a balancer. */
  get #single(): boolean {
    return this.#nodes.length === 1;
  }

  #noneReachable(): string {
    return this.#single
      ? 'the server is not running'
      : 'no server node is reachable behind the balancer';
  }

  #route(request: JsonRpcRequest): number | undefined {
    return this.#picker.pick(
      this.#policy,
      { method: request.method, mcpName: httpHeadersFor(request)['mcp-name'] },
      this.live,
      (taskId) => this.#placement.holderOf(taskId),
    );
  }

  #startFor(node: number): StartMessage {
    const earlyHandleMs = this.#earlyHandle.get(node);
    return { ...this.#start, node: `node ${node}`, ...(earlyHandleMs ? { earlyHandleMs } : {}) };
  }

  #grow(count: number): void {
    while (this.#nodes.length < count) {
      const node = this.#nodes.length + 1;
      const endpoint = this.#makeNode(node);
      endpoint.onEvent((event) => this.#events.emit('event', event));
      endpoint.configure(this.#startFor(node));
      if (this.#jobsHeld) endpoint.holdJobs(true);
      this.#nodes.push({ endpoint, cut: false });
      if (this.#started) {
        endpoint.start(this.#startFor(node));
        this.#events.emit('node', { kind: 'node.started', node, generation: endpoint.generation });
      }
    }
  }

  #changed(change: NodeChange): void {
    this.#events.emit('node', change);
    this.#events.emit('change', undefined);
  }
}

function clampNodes(count: number): number {
  if (!Number.isFinite(count)) return MIN_NODES;
  return Math.min(MAX_NODES, Math.max(MIN_NODES, Math.round(count)));
}
