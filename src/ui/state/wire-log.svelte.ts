/**
 * The wire log: every JSON-RPC message in both directions, in order, as
 * annotated rows. Messages arrive one by one from RpcClient's onWire; the
 * rows array is replaced at most every {@link FLUSH_EVERY_MS}, in an
 * animation frame, so a burst of polls costs one render. Only the newest {@link WIRE_ROWS_KEPT} rows are kept, so
 * an hour of polling does not grow the page without bound.
 */
import type { WireEntry } from '../../client/rpc-client.ts';
import {
  searchText,
  WireAnnotator,
  withPacketUpdate,
  type WireRow,
} from '../../client/wire-annotation.ts';
import type { PacketUpdate } from '../../net/net-marks.ts';
import type { FaultNotice } from '../../session/fault-notices.ts';

/**
 * How often, at most, new rows are drawn. Redrawn every frame, a log taking
 * 80 messages a second (20 tasks polled) held most of the main thread; five
 * times a second still reads as live.
 */
export const FLUSH_EVERY_MS = 200;

/** Rows the page keeps in memory (the IndexedDB copy keeps the last WIRE_LOG_LIMIT). */
export const WIRE_ROWS_KEPT = 5000;

/** Fault notices kept: drop, kill and restart come a few at a time, by hand or by a rule. */
export const FAULTS_KEPT = 500;

export class WireLog {
  #rows = $state.raw<readonly WireRow[]>([]);
  #filter = $state('');
  #faults = $state.raw<readonly FaultNotice[]>([]);
  readonly #visible = $derived.by(() => {
    const words = this.#filter.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return this.#rows;
    return this.#rows.filter((row) => words.every((word) => searchText(row).includes(word)));
  });
  readonly #annotator: WireAnnotator;
  #pending: WireRow[] = [];
  #updates: PacketUpdate[] = [];
  /**
   * Position of each sent message still waiting for its network fate, by
   * packet: counted from the first row ever logged, so dropping old rows
   * does not move it.
   */
  readonly #byPacket = new Map<number, number>();
  /** Rows dropped from the front so far (the cap, or Clear). */
  #dropped = 0;
  #frame: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #flushedAt = -Infinity;

  /**
   * `annotator`: the page session's (its task news annotates every entry
   * first), so each message is annotated once for both; a log of its own by default.
   */
  constructor(annotator = new WireAnnotator()) {
    this.#annotator = annotator;
  }

  get rows(): readonly WireRow[] {
    return this.#rows;
  }

  /**
   * Every row up to this moment, including those waiting for the next frame:
   * for readers that must not lag behind the client (a scenario judging what
   * arrived), and that keep reading while the tab is hidden and frames stop.
   */
  rowsNow(): readonly WireRow[] {
    // Read from a template or a $derived (the scenario panel's second-tab link observes the run):
    // state may not change there, so the rows are merged for this read and kept for the frame.
    if ($effect.tracking()) return this.#merged().rows;
    this.#flush();
    return this.#rows;
  }

  /** Drop, kill, restart and offline, in order, each placed after the wire entry logged before it. */
  get faults(): readonly FaultNotice[] {
    return this.#faults;
  }

  /** A fault broke the link or the server: it shows among the rows at once. */
  addFault(notice: FaultNotice): void {
    this.#faults = [...this.#faults, notice].slice(-FAULTS_KEPT);
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
      this.#byPacket.set(row.net.packet, this.#dropped + this.#rows.length + this.#pending.length);
    }
    this.#pending.push(row);
    this.#schedule();
  }

  /**
   * Shows messages kept from before a reload ahead of everything logged
   * since. Called once, before the client sends anything.
   */
  restore(entries: readonly WireEntry[]): void {
    if (entries.length === 0) return;
    this.#flush();
    const restored = entries.slice(-WIRE_ROWS_KEPT).map((entry) => this.#annotator.annotate(entry));
    this.#dropped -= restored.length; // Positions logged so far moved down by this many.
    this.#rows = [...restored, ...this.#rows];
    this.#trim();
  }

  /** A later fact about a sent message (it arrived, or was lost in flight); shows with the next frame. */
  update(update: PacketUpdate): void {
    this.#updates.push(update);
    this.#schedule();
  }

  clear(): void {
    this.#flush();
    this.#dropped += this.#rows.length;
    this.#rows = [];
    this.#faults = [];
    this.#byPacket.clear();
  }

  #schedule(): void {
    if (this.#frame !== undefined || this.#timer !== undefined) return;
    const wait = this.#flushedAt + FLUSH_EVERY_MS - performance.now();
    if (wait <= 0) {
      this.#frame = requestAnimationFrame(() => this.#flush());
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#frame = requestAnimationFrame(() => this.#flush());
    }, wait);
  }

  #flush(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#frame = undefined;
    this.#timer = undefined;
    this.#flushedAt = performance.now();
    if (this.#pending.length === 0 && this.#updates.length === 0) return;
    const { rows, settled } = this.#merged();
    for (const packet of settled) this.#byPacket.delete(packet);
    this.#rows = rows;
    this.#pending = [];
    this.#updates = [];
    this.#trim();
  }

  /** The rows with the pending ones and their updates applied, changing nothing kept. */
  #merged(): { rows: WireRow[]; settled: Set<number> } {
    const rows = [...this.#rows, ...this.#pending];
    const settled = new Set<number>();
    for (const update of this.#updates) {
      if (settled.has(update.packet)) continue;
      const position = this.#byPacket.get(update.packet);
      const index = position === undefined ? undefined : position - this.#dropped;
      const row = index === undefined ? undefined : rows[index];
      if (index === undefined || !row) continue;
      rows[index] = withPacketUpdate(row, update);
      // An arrival or a loss is the last word (the node it went to comes just before).
      if (update.deliveredAt !== undefined || update.lost) settled.add(update.packet);
    }
    return { rows, settled };
  }

  /** Drops the oldest rows beyond the cap, and the packets they were waiting on. */
  #trim(): void {
    const excess = this.#rows.length - WIRE_ROWS_KEPT;
    if (excess <= 0) return;
    this.#rows = this.#rows.slice(excess);
    this.#dropped += excess;
    for (const [packet, position] of this.#byPacket) {
      if (position < this.#dropped) this.#byPacket.delete(packet);
    }
  }
}
