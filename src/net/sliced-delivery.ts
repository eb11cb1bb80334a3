/**
 * Hands a batched port's arriving messages on, cutting the work into several
 * tasks only when the slices say so: a frame is due (src/clock/frame-slices.ts),
 * or so many were handed on in this task (src/clock/work-chunks.ts). A
 * batch of a worker tick's answers (hundreds with a thousand tasks
 * followed) is then no long task the page cannot draw through, and a batch
 * that fits between two frames is handed on whole, as it always was.
 *
 * Messages are handed on one at a time, in the order they arrived, each
 * exactly once; after each one its microtasks get a turn (as when each
 * message was its own `postMessage`), so the slice's time counts the work
 * each reply set off. Batches that arrive while a cut batch waits queue
 * behind it. Stopped (the link closed), it hands nothing more on.
 */
import type { Slices } from '../clock/frame-slices.ts';

/** How many handed-on messages the queue keeps in front before dropping them, while it never runs dry. */
const COMPACT_AT = 1024;

export class SlicedDelivery {
  readonly #deliver: (message: unknown) => void;
  readonly #slices: Slices;
  #queue: unknown[] = [];
  #head = 0;
  #draining = false;
  #stopped = false;

  /** `deliver` is handed each message once, in order; one that throws is reported and the rest go on. */
  constructor(deliver: (message: unknown) => void, slices: Slices) {
    this.#deliver = deliver;
    this.#slices = slices;
  }

  /** Messages waiting for a later slice. */
  get pending(): number {
    return this.#queue.length - this.#head;
  }

  /** Queues `messages` behind what waits; handing on starts at once when nothing waits. */
  push(messages: readonly unknown[]): void {
    if (this.#stopped) return;
    for (const message of messages) this.#queue.push(message);
    if (!this.#draining) void this.#drain();
  }

  /** Hands nothing more on, and forgets what waits (the link closed). */
  stop(): void {
    this.#stopped = true;
    this.#queue = [];
    this.#head = 0;
  }

  /** One task's slice: hands messages on until none waits, or the slices say a frame is due. */
  async #drain(): Promise<void> {
    this.#draining = true;
    const startedAt = this.#slices.now();
    let handed = 0;
    while (!this.#stopped && this.#head < this.#queue.length) {
      if (handed > 0 && this.#slices.shouldYield(startedAt, handed)) {
        // Still draining: what arrives meanwhile queues behind the rest.
        this.#slices.later(() => void this.#drain());
        return;
      }
      const message = this.#queue[this.#head++];
      handed++;
      if (this.#head >= COMPACT_AT) {
        this.#queue = this.#queue.slice(this.#head);
        this.#head = 0;
      }
      try {
        this.#deliver(message);
      } catch (error) {
        // As an event listener's error would: it surfaces, and the messages after it still arrive.
        queueMicrotask(() => {
          throw error;
        });
      }
      // The microtasks this message queued run now, inside the slice that times them.
      await undefined;
    }
    this.#draining = false;
    this.#queue = [];
    this.#head = 0;
  }
}
