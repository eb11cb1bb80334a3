/**
 * A message transport: what the client needs from any link to a server.
 * Messages are plain JSON-RPC objects; the link may break at any time.
 */
import type { LinkDirection } from './link-conditions.ts';

/** Why a message never arrived. */
export type LossReason = 'loss' | 'link-dropped' | 'rule';

/**
 * What a fault-injecting link did to one message. Links without faults give
 * none. A message sent by the page gets its mark when sent, and later
 * updates (`PacketUpdate`) when it arrives or is lost in flight.
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

/** A later fact about a message the page sent: it arrived, or was lost in flight. */
export interface PacketUpdate {
  packet: number;
  at: number;
  deliveredAt?: number;
  reordered?: boolean;
  lost?: LossReason;
  rule?: string;
}

export interface Transport {
  /** Sends one message; a fault-injecting link says what it will do to it. */
  send(message: unknown): NetMark | void;
  /** Called for every message that arrives. */
  onmessage?: (message: unknown, mark?: NetMark) => void;
  /** Called for a message from the server that the network lost on the way; the client never gets it. */
  onlost?: (message: unknown, mark: NetMark) => void;
  /** Called once when the link breaks or is closed. */
  onclose?: (reason: string) => void;
  close(reason?: string): void;
}

/** Opens a new link. Called again after every break. */
export type Connector = () => Promise<Transport>;
