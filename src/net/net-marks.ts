/**
 * What the simulated network did to each message, as it reports it to its
 * observers (`FaultyNetwork.onMark`, `onPacketUpdate`): the marks the wire
 * log shows (lost, delayed, duplicated, reordered, a fault rule), joined to
 * the log's entries by whoever logs them (the RPC client's `marks` option).
 */
import type { LinkDirection } from './link-conditions.ts';
import type { Transport } from './transport.ts';

/** Why a message never arrived. */
export type LossReason = 'loss' | 'link-dropped' | 'rule';

/**
 * What a fault-injecting link did to one message. A message sent by the
 * page gets its mark when sent, and later updates (`PacketUpdate`) when it
 * arrives or is lost in flight.
 */
export interface NetMark {
  /** Unique per network; updates refer to it. */
  packet: number;
  /** Which connection carried it: 1, 2, ... (a new one after every reconnect). */
  link: number;
  direction: LinkDirection;
  /** When it entered the network. */
  sentAt: number;
  /** When it came out at the other end (first copy); absent while in flight and when lost. */
  deliveredAt?: number;
  /** Time in the network: latency and jitter, plus any hold-back for reordering, ms. */
  delayMs: number;
  /** It never arrived, and why. */
  lost?: LossReason;
  /** The network delivered it twice (the second copy of a received message is its own row, with `duplicate`). */
  duplicated?: boolean;
  /** This received row is the network's extra copy of an earlier one. */
  duplicate?: boolean;
  /** It arrived out of the order it was sent in (it overtook, or was overtaken). */
  reordered?: boolean;
  /** Held back on purpose so later messages could overtake it. */
  heldMs?: number;
  /** The scheduled fault rule this message triggered, by label. */
  rule?: string;
}

/**
 * A later fact about a message the page sent: it arrived, or was lost in
 * flight, or (told by the page's session, not the network) the cluster node
 * a balancer forwarded it to.
 */
export interface PacketUpdate {
  packet: number;
  at: number;
  /** The server node behind a balancer it went to, 1 to 5. */
  node?: number;
  deliveredAt?: number;
  reordered?: boolean;
  lost?: LossReason;
  rule?: string;
}

/**
 * One message's mark, reported at the moment it matters: a sent message as
 * it enters the network (just before the sender logs it), a received one
 * just before its link hands it over (`delivered`), or when the network
 * lost it on the way in (`delivered: false`: the client never gets it).
 */
export interface MarkEvent {
  /** The link it travelled on: the transport the network's connector returned. */
  transport: Transport;
  message: unknown;
  /**
   * The network's own mark, not a copy: every observer gets the same object,
   * and it does not change after it is reported (a sent message's arrival
   * comes as a PacketUpdate). Read it, keep it; never change it.
   */
  readonly mark: Readonly<NetMark>;
  delivered: boolean;
}

/** Something that reports marks: a FaultyNetwork. */
export interface MarkSource {
  onMark(listener: (event: MarkEvent) => void): () => void;
}
