/**
 * The wire log: every JSON-RPC message in both directions, in order, as
 * annotated rows. Messages arrive one by one from RpcClient's onWire; the
 * rows array is replaced once per animation frame, so a burst of polls
 * costs one render.
 */
import type { WireEntry } from '../../client/rpc-client.ts';
import { WireAnnotator, withPacketUpdate, type WireRow } from '../../client/wire-annotation.ts';
import type { PacketUpdate } from '../../net/transport.ts';

export class WireLog {
  #rows = $state.raw<readonly WireRow[]>([]);
  #filter = $state('');
  readonly #visible = $derived.by(() => {
    const words = this.#filter.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return this.#rows;
    return this.#rows.filter((row) => words.every((word) => row.search.includes(word)));
  });
  #annotator = new WireAnnotator();
  #pending: WireRow[] = [];
  #updates: PacketUpdate[] = [];
  /** Row index of each sent message still waiting for its network fate, by packet. */
  readonly #byPacket = new Map<number, number>();
  #frame: number | undefined;

  get rows(): readonly WireRow[] {
    return this.#rows;
  }

  /**
   * Every row up to this moment, including those waiting for the next frame:
   * for readers that must not lag behind the client (a scenario judging what
   * arrived), and that keep reading while the tab is hidden and frames stop.
   */
  rowsNow(): readonly WireRow[] {
    this.#flush();
    return this.#rows;
  }

  /** The rows matching the filter box (every word must match). */
  get visible(): readonly WireRow[] {
    return this.#visible;
  }

  get filter(): string {
    return this.#filter;
  }

  set filter(value: string) {
    this.#filter = value;
  }

  /** Records one entry; it shows with the next frame. */
  add(entry: WireEntry): void {
    const row = this.#annotator.annotate(entry);
    if (row.net && row.direction === 'out' && row.net.deliveredAt === undefined && !row.net.lost) {
      this.#byPacket.set(row.net.packet, this.#rows.length + this.#pending.length);
    }
    this.#pending.push(row);
    this.#frame ??= requestAnimationFrame(() => this.#flush());
  }

  /**
   * Shows messages kept from before a reload ahead of everything logged
   * since. Called once, before the client sends anything.
   */
  restore(entries: readonly WireEntry[]): void {
    if (entries.length === 0) return;
    this.#flush();
    this.#rows = [...entries.map((entry) => this.#annotator.annotate(entry)), ...this.#rows];
  }

  /** A later fact about a sent message (it arrived, or was lost in flight); shows with the next frame. */
  update(update: PacketUpdate): void {
    this.#updates.push(update);
    this.#frame ??= requestAnimationFrame(() => this.#flush());
  }

  clear(): void {
    this.#flush();
    this.#rows = [];
    this.#byPacket.clear();
  }

  #flush(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    this.#frame = undefined;
    if (this.#pending.length === 0 && this.#updates.length === 0) return;
    const rows = [...this.#rows, ...this.#pending];
    for (const update of this.#updates) {
      const index = this.#byPacket.get(update.packet);
      const row = index === undefined ? undefined : rows[index];
      if (index === undefined || !row) continue;
      rows[index] = withPacketUpdate(row, update);
      this.#byPacket.delete(update.packet); // An arrival or a loss is the last word.
    }
    this.#rows = rows;
    this.#pending = [];
    this.#updates = [];
  }
}
