/**
 * The wire log: every JSON-RPC message in both directions, in order, as
 * annotated rows. Messages arrive one by one from RpcClient's onWire; the
 * rows array is replaced once per animation frame, so a burst of polls
 * costs one render.
 */
import type { WireEntry } from '../../client/rpc-client.ts';
import { WireAnnotator, type WireRow } from '../../client/wire-annotation.ts';

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
  #frame: number | undefined;

  get rows(): readonly WireRow[] {
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
    this.#pending.push(this.#annotator.annotate(entry));
    this.#frame ??= requestAnimationFrame(() => this.#flush());
  }

  clear(): void {
    this.#flush();
    this.#rows = [];
  }

  #flush(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    this.#frame = undefined;
    if (this.#pending.length === 0) return;
    this.#rows = [...this.#rows, ...this.#pending];
    this.#pending = [];
  }
}
