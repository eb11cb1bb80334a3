/**
 * Which server node served each wire message, behind a cluster's balancer
 * (`ServerEndpoint.onServed`). A received message's node is known before the
 * client logs it, so its entry carries `node` at once; a sent one reaches a
 * node only when the network delivers it, so its row learns the node later,
 * as a `PacketUpdate` with `node` for the message's packet, reported with
 * the network's own updates.
 */
import type { WireEntry } from '../client/rpc-client.ts';
import type { FaultyNetwork } from '../net/faulty-network.ts';
import type { PacketUpdate } from '../net/net-marks.ts';
import type { ServerEndpoint } from './server-endpoint.ts';

export class ServedBy {
  /** Received messages, by identity: the node that sent each. */
  readonly #nodeOf = new WeakMap<object, number>();
  /** Sent messages, by identity: the packet the network carries each as. */
  readonly #packetOf = new WeakMap<object, number>();

  /** `report` hears every packet update: the network's, and each sent message's node. */
  constructor(endpoint: ServerEndpoint, network: FaultyNetwork, report: (u: PacketUpdate) => void) {
    network.onPacketUpdate(report);
    if (!endpoint.onServed) return;
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
