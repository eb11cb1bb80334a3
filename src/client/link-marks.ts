/**
 * Joins what the simulated network did to each message (its marks, reported
 * to observers: `FaultyNetwork.onMark`) to the wire entries of one client.
 * The network reports a sent message's mark as the message enters it, and a
 * received one's just before its link hands it over, so the mark waiting
 * here is the one of the message being logged now. A message the network
 * lost on its way in never reaches the client: it is logged from its mark
 * alone, so the sequence view can draw it dying in the network.
 */
import type { MarkEvent, MarkSource, NetMark } from '../net/net-marks.ts';
import type { Transport } from '../net/transport.ts';
import type { WireDirection } from './rpc-client.ts';

export class LinkMarks {
  readonly #waiting: Record<WireDirection, MarkEvent | undefined> = {
    out: undefined,
    in: undefined,
  };
  readonly #stop: () => void;

  /**
   * `mine` says whether a link is this client's current one; `lost` logs a
   * received message the network lost.
   */
  constructor(
    source: MarkSource | undefined,
    mine: (transport: Transport) => boolean,
    lost: (message: unknown, mark: NetMark) => void,
  ) {
    this.#stop =
      source?.onMark((event) => {
        if (!mine(event.transport)) return;
        if (event.mark.direction === 'in' && !event.delivered) lost(event.message, event.mark);
        else this.#waiting[event.mark.direction] = event;
      }) ?? (() => {});
  }

  /** The mark of the message being logged, if the network reported one for it. */
  take(direction: WireDirection, message: unknown): NetMark | undefined {
    const event = this.#waiting[direction];
    this.#waiting[direction] = undefined;
    return event && Object.is(event.message, message) ? event.mark : undefined;
  }

  stop(): void {
    this.#stop();
  }
}
