/**
 * Which server node served each wire message, behind a cluster's balancer.
 * Two sources: the page's own balancer (`ServerEndpoint.onServed`), and a
 * remote balancer such as `npm run cluster`'s, whose every HTTP answer names
 * its node in `x-served-by` (`node-2`). A received message's node is known
 * before the client logs it, so its entry carries `node` at once; a sent one
 * reaches a node only when the network delivers it (the page's balancer) or
 * when its answer says which node it went to (a remote one), so its row
 * learns the node later, as a `PacketUpdate` with `node` for the message's
 * packet, reported with the network's own updates.
 */
import type { WireEntry } from '../client/rpc-client.ts';
import type { FaultyNetwork } from '../net/faulty-network.ts';
import { httpFactsOf } from '../net/http-facts.ts';
import type { PacketUpdate } from '../net/net-marks.ts';
import type { Transport } from '../net/transport.ts';
import { parseMessage } from '../protocol/jsonrpc.ts';
import { MAX_NODES } from './cluster/cluster-endpoint.ts';
import type { ServerEndpoint } from './server-endpoint.ts';

/**
 * The node column's number for an `x-served-by` value: `node-2` (what
 * `npm run cluster` sends), `node 2` or `2`; undefined for any other name, or
 * a node past what the page's node column shows (1 to {@link MAX_NODES}).
 */
export function nodeOfServedBy(servedBy: string | undefined): number | undefined {
  const digits = servedBy === undefined ? undefined : /^(?:node[-_ ]?)?(\d{1,2})$/i.exec(servedBy);
  const node = digits ? Number(digits[1]) : NaN;
  return node >= 1 && node <= MAX_NODES ? node : undefined;
}

export class ServedBy {
  /** Received messages, by identity: the node that sent each. */
  readonly #nodeOf = new WeakMap<object, number>();
  /** Sent messages, by identity: the packet the network carries each as. */
  readonly #packetOf = new WeakMap<object, number>();
  /** Over HTTP, requests sent and not answered yet, per link: the packet of each by its id. */
  readonly #unanswered = new WeakMap<Transport, Map<string | number, number>>();

  /** `report` hears every packet update: the network's, and each sent message's node. */
  constructor(endpoint: ServerEndpoint, network: FaultyNetwork, report: (u: PacketUpdate) => void) {
    network.onPacketUpdate(report);
    if (!endpoint.onServed) {
      network.onMark(({ transport, message, mark }) => {
        const node = this.#fromHttp(transport, message, mark.direction, mark.packet);
        if (node !== undefined) report({ ...node, at: network.scheduler.now() });
      });
      return;
    }
    network.onMark(({ message, mark }) => {
      if (mark.direction === 'out' && isObject(message)) this.#packetOf.set(message, mark.packet);
    });
    endpoint.onServed(({ message, node, direction }) => {
      if (!isObject(message)) return;
      if (direction === 'in') {
        this.#nodeOf.set(message, node);
        return;
      }
      const packet = this.#packetOf.get(message);
      if (packet !== undefined) report({ packet, at: network.scheduler.now(), node });
    });
  }

  /**
   * A remote server's message: a received one takes its node from its HTTP
   * answer's `x-served-by`, and the request it answers (the packet returned)
   * went to that node.
   */
  #fromHttp(
    transport: Transport,
    message: unknown,
    direction: 'out' | 'in',
    packet: number,
  ): { packet: number; node: number } | undefined {
    const parsed = parseMessage(message);
    const id =
      parsed.kind === 'request' || parsed.kind === 'result' || parsed.kind === 'error'
        ? (parsed.message.id ?? undefined)
        : undefined;
    let unanswered = this.#unanswered.get(transport);
    if (direction === 'out') {
      if (parsed.kind !== 'request' || id === undefined) return undefined;
      if (!unanswered) this.#unanswered.set(transport, (unanswered = new Map()));
      unanswered.set(id, packet);
      return undefined;
    }
    const node = nodeOfServedBy(httpFactsOf(message)?.servedBy);
    if (node !== undefined && isObject(message)) this.#nodeOf.set(message, node);
    const request = id === undefined ? undefined : unanswered?.get(id);
    if (request === undefined) return undefined;
    unanswered!.delete(id!);
    return node === undefined ? undefined : { packet: request, node };
  }

  /** `listener`, given each entry {@link tag}ged. */
  tagging(listener: (entry: WireEntry) => void): (entry: WireEntry) => void {
    return (entry) => listener(this.tag(entry));
  }

  /** The entry, with the node that sent it when it is a received message from one. */
  tag(entry: WireEntry): WireEntry {
    if (entry.direction !== 'in' || !isObject(entry.message)) return entry;
    const node = this.#nodeOf.get(entry.message);
    return node === undefined ? entry : { ...entry, node };
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
