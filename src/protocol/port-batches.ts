/**
 * Batches on a MessagePort between the page and its server worker: what is
 * sent in one tick leaves as one `postMessage` carrying an array of
 * messages, instead of one `postMessage` each. A page following many tasks
 * sends a burst of polls at once, and the worker answers a burst at once;
 * each `postMessage` costs a structured clone, a task on the other thread
 * and an event, and a batch pays those once for all its messages.
 *
 * Both ends agree on it when the port is handed over (`batched` in the
 * connect message, worker-control.ts), so a port is batched or not for
 * good: a batched port carries only arrays, and an unbatched one only
 * single messages. Order is kept: one queue per port, flushed in order.
 */

/** Collects what one end sends in a tick and posts it as one batch. */
export class PortBatcher {
  readonly #post: (batch: unknown[]) => void;
  #queue: unknown[] = [];
  #scheduled = false;

  /** `post` sends one batch (an array of one or more messages) on the port. */
  constructor(post: (batch: unknown[]) => void) {
    this.#post = post;
  }

  /** Queues `message`; the queue leaves once the current synchronous work and the microtasks queued before it are done. */
  send(message: unknown): void {
    this.#queue.push(message);
    if (this.#scheduled) return;
    this.#scheduled = true;
    // A microtask, not a timer: a batch never waits for the event loop, only for its own tick.
    void Promise.resolve().then(() => this.flush());
  }

  /** Posts what is queued now (before the port closes, so nothing sent is dropped by the batching). */
  flush(): void {
    this.#scheduled = false;
    if (this.#queue.length === 0) return;
    const batch = this.#queue;
    this.#queue = [];
    this.#post(batch);
  }
}

/**
 * The messages one `postMessage` on a batched port carried. Anything but an
 * array is taken as one message, so whatever arrives is still read and
 * validated as a message, never dropped unseen.
 */
export function messagesOf(data: unknown): readonly unknown[] {
  return Array.isArray(data) ? data : [data];
}
