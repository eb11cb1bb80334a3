/**
 * Hands the messages that arrive on a batched port on in slices of the main
 * thread, so one batch (a worker tick's answers to a burst of polls: hundreds
 * of replies with a thousand tasks followed) is not one long task the page
 * cannot draw a frame through. Messages are handed on one at a time, in the
 * order they arrived, each exactly once; after each one its microtasks get a
 * turn (as when each message was its own `postMessage`), so a slice's time
 * counts the work each reply set off. Once a slice has used its budget, the
 * rest waits for a later task (`yield`), which lets the browser draw a frame
 * that is due; batches that arrive meanwhile queue behind it.
 *
 * A slice boundary only lets other work run in between: it reorders nothing
 * on this link, and a stopped delivery (the link closed) hands nothing more
 * on, as a closed link would not.
 */

/** How slices are timed and separated; injectable so Node tests step a simulated clock by hand. */
export interface SlicePace {
  /** Milliseconds on a clock fine enough to time a slice (the page: `performance.now`). */
  now(): number;
  /** Resolves in a later task of the event loop, so rendering and other tasks can run first. */
  yield(): Promise<void>;
}

/**
 * A few milliseconds: a slice and the frame drawn after it fit in 16.7 ms,
 * while the cost of a yield (about a task's overhead) stays small beside it.
 */
export const SLICE_BUDGET_MS = 6;

/** How many handed-on messages the queue keeps in front before dropping them, while it never runs dry. */
const COMPACT_AT = 1024;

/** The part of the Prioritized Task Scheduling API used here (Chromium has it; Node and older browsers do not). */
interface YieldingScheduler {
  yield(): Promise<void>;
}

function isYieldingScheduler(value: unknown): value is YieldingScheduler {
  return (
    typeof value === 'object' &&
    value !== null &&
    'yield' in value &&
    typeof value.yield === 'function'
  );
}

/** A later task through one MessageChannel (what `scheduler.yield` does where it is missing). */
function channelYield(): () => Promise<void> {
  let channel: MessageChannel | undefined;
  const waiting: (() => void)[] = [];
  return () =>
    new Promise<void>((resolve) => {
      if (!channel) {
        channel = new MessageChannel();
        channel.port1.onmessage = () => waiting.shift()?.();
        // Node keeps a process alive while a port listens: this one must not.
        const port: object = channel.port1;
        if ('unref' in port && typeof port.unref === 'function') port.unref();
      }
      waiting.push(resolve);
      channel.port2.postMessage(undefined);
    });
}

/** The main thread's clock, and `scheduler.yield` where the browser has it (a yield that keeps its place ahead of new tasks). */
export function mainThreadPace(): SlicePace {
  const scheduler: unknown = 'scheduler' in globalThis ? globalThis.scheduler : undefined;
  const fallback = channelYield();
  return {
    now: () => performance.now(),
    yield: isYieldingScheduler(scheduler) ? () => scheduler.yield() : fallback,
  };
}

export class SlicedDelivery {
  readonly #deliver: (message: unknown) => void;
  readonly #pace: SlicePace;
  readonly #budgetMs: number;
  #queue: unknown[] = [];
  #head = 0;
  #draining = false;
  #stopped = false;

  /** `deliver` is handed each message once, in order; one that throws is reported and the rest go on. */
  constructor(
    deliver: (message: unknown) => void,
    options: { pace?: SlicePace | undefined; budgetMs?: number | undefined } = {},
  ) {
    this.#deliver = deliver;
    this.#pace = options.pace ?? mainThreadPace();
    this.#budgetMs = options.budgetMs ?? SLICE_BUDGET_MS;
  }

  /** Messages waiting for a later slice. */
  get pending(): number {
    return this.#queue.length - this.#head;
  }

  /** Queues `messages` behind what waits; the first is handed on at once when nothing waits. */
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

  async #drain(): Promise<void> {
    this.#draining = true;
    let sliceStart = this.#pace.now();
    try {
      while (!this.#stopped && this.#head < this.#queue.length) {
        if (this.#pace.now() - sliceStart >= this.#budgetMs) {
          await this.#pace.yield();
          sliceStart = this.#pace.now();
          continue;
        }
        const message = this.#queue[this.#head++];
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
        // The microtasks this message queued run now, inside the slice that timed it.
        await undefined;
      }
    } finally {
      this.#draining = false;
      if (this.#head === this.#queue.length) {
        this.#queue = [];
        this.#head = 0;
      }
    }
  }
}
