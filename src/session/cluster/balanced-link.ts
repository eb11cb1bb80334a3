/**
 * One client connection through the page's load balancer. The client sees
 * one Transport; behind it the balancer forwards each JSON-RPC request to
 * the node its policy picks (a link per node, opened on first use) and each
 * reply back, and reports which node served every message. A node that
 * goes away with requests of this connection in flight (or a push stream
 * on it) breaks the connection, as a 502 mid-request would: the client
 * reconnects and re-issues what was lost (C8).
 */
import { parseMessage } from '../../protocol/jsonrpc.ts';
import { errorMessage } from '../../protocol/error-message.ts';
import type { Transport } from '../../net/transport.ts';
import type { JsonRpcRequest } from '../../protocol/jsonrpc.ts';

/** What a link needs of its balancer. */
export interface LinkBalancer {
  /** The node for this request, or undefined when no node is reachable. */
  route(request: JsonRpcRequest): number | undefined;
  /** Opens a link to `node`, as this connection's identity. */
  open(node: number): Promise<Transport>;
  /** `message` went to (`out`) or came from (`in`) `node`. */
  served(message: unknown, node: number, direction: 'out' | 'in'): void;
  /** This connection closed. */
  closed(link: BalancedLink): void;
  /** What the learner calls `node`: `node 2`, or `the server` when it is the only one. */
  nameOf(node: number): string;
  /** Why no request can be forwarded now, in the words of the setup (one node or several). */
  noneReachable(): string;
}

const STREAM_METHOD = 'subscriptions/listen';
const CANCELLED = 'notifications/cancelled';

export class BalancedLink implements Transport {
  onmessage?: (message: unknown) => void;
  onclose?: (reason: string) => void;
  onerror?: (error: Error) => void;
  readonly #balancer: LinkBalancer;
  readonly #nodeLinks = new Map<number, Promise<Transport>>();
  /** Requests forwarded and not answered yet, and open push streams, by id: the node each went to. */
  readonly #pending = new Map<string | number, number>();
  readonly #streams = new Map<string | number, number>();
  #closed = false;

  constructor(balancer: LinkBalancer) {
    this.#balancer = balancer;
  }

  get closed(): boolean {
    return this.#closed;
  }

  async start(): Promise<void> {}

  async send(message: unknown): Promise<void> {
    if (this.#closed) throw new Error('transport is closed');
    const parsed = parseMessage(message);
    if (parsed.kind === 'request') {
      const node = this.#balancer.route(parsed.message);
      if (node === undefined) {
        this.close(this.#balancer.noneReachable());
        return;
      }
      const { id, method } = parsed.message;
      this.#pending.set(id, node);
      if (method === STREAM_METHOD) this.#streams.set(id, node);
      this.#forward(node, message);
      return;
    }
    // Closing a push stream goes to the node holding it; nothing else the client sends needs a node.
    if (parsed.kind === 'notification' && parsed.message.method === CANCELLED) {
      const requestId = parsed.message.params?.['requestId'];
      const key = typeof requestId === 'string' || typeof requestId === 'number' ? requestId : '';
      const node = this.#streams.get(key) ?? this.#pending.get(key);
      this.#streams.delete(key);
      this.#pending.delete(key);
      if (node !== undefined) this.#forward(node, message);
    }
  }

  /** The balancer can no longer reach `node` (cut off): its link here closes. */
  lose(node: number, reason: string): void {
    void this.#nodeLinks.get(node)?.then(
      (link) => link.close(reason),
      () => {},
    );
  }

  close(reason = 'closed'): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const link of this.#nodeLinks.values())
      void link.then(
        (l) => l.close(reason),
        () => {},
      );
    this.#nodeLinks.clear();
    this.#balancer.closed(this);
    this.onclose?.(reason);
  }

  #forward(node: number, message: unknown): void {
    this.#balancer.served(message, node, 'out');
    this.#link(node)
      .then((link) => link.send(message))
      .catch((error: unknown) => this.#nodeGone(node, undefined, errorMessage(error)));
  }

  #link(node: number): Promise<Transport> {
    const known = this.#nodeLinks.get(node);
    if (known) return known;
    const opening = this.#balancer.open(node).then(async (link) => {
      link.onmessage = (message) => this.#fromNode(node, message);
      link.onclose = (reason) => this.#nodeGone(node, opening, reason);
      await link.start();
      if (this.#closed) link.close('connection closed');
      return link;
    });
    this.#nodeLinks.set(node, opening);
    return opening;
  }

  #fromNode(node: number, message: unknown): void {
    if (this.#closed) return;
    this.#balancer.served(message, node, 'in');
    const parsed = parseMessage(message);
    if ((parsed.kind === 'result' || parsed.kind === 'error') && parsed.message.id !== null) {
      const id = parsed.message.id;
      this.#pending.delete(id);
      // A stream's acknowledgement does not end it; an error does.
      if (parsed.kind === 'error') this.#streams.delete(id);
    }
    this.onmessage?.(message);
  }

  /** `node`'s link broke (or could not open): with nothing of ours on it, the next request opens a fresh one. */
  #nodeGone(node: number, link: Promise<Transport> | undefined, reason: string): void {
    if (link === undefined || this.#nodeLinks.get(node) === link) this.#nodeLinks.delete(node);
    if (this.#closed) return;
    const ids = new Set<string | number>();
    for (const map of [this.#pending, this.#streams])
      for (const [id, n] of map) if (n === node) ids.add(id);
    const lost = ids.size;
    if (lost > 0)
      this.close(`${this.#balancer.nameOf(node)} went away (${reason}); ${lost} in flight on it`);
  }
}
