/**
 * The messages one link holds in flight, in the order they come out: by due
 * time, and by the order they entered among those due at the same time, so
 * delivery never depends on how a scheduler breaks ties.
 *
 * A clean link (every delay 0) enters each message due no earlier than the
 * one before it, so each one is appended and taken from the front in O(1);
 * a delayed one is placed by binary search, not by sorting the whole queue
 * on every message.
 */

/** What the queue orders by: `seq` must grow with every item entered. */
export interface Due {
  deliverAt: number;
  seq: number;
}

/** Beyond this many taken slots at the front, the array is compacted (when they are most of it). */
const COMPACT_AFTER = 1024;

export class DeliveryQueue<T extends Due> {
  /** Items from `#head` on, sorted by (deliverAt, seq); slots before it were taken. */
  #items: (T | undefined)[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  /** The next item due, if any. */
  peek(): T | undefined {
    return this.#items[this.#head];
  }

  /** Enters `item`, whose `seq` is higher than any entered before: after every item due no later. */
  push(item: T): void {
    const items = this.#items;
    const last = items[items.length - 1];
    if (last === undefined || last.deliverAt <= item.deliverAt) {
      items.push(item);
      return;
    }
    // First slot due later than the item: equal due times keep their entry order.
    let low = this.#head;
    let high = items.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (items[middle]!.deliverAt <= item.deliverAt) low = middle + 1;
      else high = middle;
    }
    items.splice(low, 0, item);
  }

  /** Takes the next item due. */
  shift(): T | undefined {
    const item = this.#items[this.#head];
    if (item === undefined) return undefined;
    this.#items[this.#head++] = undefined; // Not kept alive by the queue once taken.
    if (this.#head === this.#items.length) {
      this.#items.length = 0;
      this.#head = 0;
    } else if (this.#head > COMPACT_AFTER && this.#head * 2 > this.#items.length) {
      this.#items.splice(0, this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Calls `visit` on every item in order (it may change their due times: then call {@link resort}). */
  forEach(visit: (item: T) => void): void {
    const items = this.#items;
    for (let i = this.#head; i < items.length; i++) visit(items[i]!);
  }

  /** Puts the items back in order after their due times changed. */
  resort(): void {
    this.#items.splice(0, this.#head);
    this.#head = 0;
    (this.#items as T[]).sort((a, b) => a.deliverAt - b.deliverAt || a.seq - b.seq);
  }

  /** Empties the queue; returns what it held, in order. */
  drain(): T[] {
    const held = this.#items.slice(this.#head) as T[];
    this.#items = [];
    this.#head = 0;
    return held;
  }
}
