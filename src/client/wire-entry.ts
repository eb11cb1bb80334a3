/** One message that crossed a client's link, as the wire log shows it and the journal keeps it. */
import type { NetMark } from '../net/net-marks.ts';
import type { HttpFacts } from '../protocol/http-facts.ts';

export type WireDirection = 'out' | 'in';

/** One message that crossed the link, as the wire log shows it. */
export interface WireEntry {
  seq: number;
  at: number;
  direction: WireDirection;
  message: unknown;
  /** Set on a request sent again under a new id after the link broke (C8). */
  reissueOf?: number | string;
  /** Why it was re-issued: the link broke, or no answer came within the request's timeout. */
  reissueReason?: 'link' | 'timeout';
  /** Which client sent or received it, when one log holds several (undefined: the page's own client). */
  connection?: string;
  /** What HTTP said about the exchange that brought it (a remote server's answer). */
  http?: HttpFacts;
  /**
   * What a fault-injecting network did to it (lost, delayed, duplicated,
   * reordered). A message the page sent may learn more later (`PacketUpdate`).
   * A received row with `net.lost` never reached the client: it is logged
   * only so the network's losses can be seen.
   */
  net?: NetMark;
  /** Which server node behind a balancer sent it, or (a sent one) was sent it: 1 to 5; absent for a single server. */
  node?: number;
}
