/**
 * A ticking "now" for countdowns. It ticks only while something on screen
 * reads it (createSubscriber starts the timer with the first reader and
 * stops it with the last), like svelte/reactivity's MediaQuery. It tells the
 * world clock's time (src/clock) once the page entry says so, so the times it
 * is compared with (a retry's `retryAt`, a last report) are on the same clock.
 */
import { createSubscriber } from 'svelte/reactivity';

export class Clock {
  readonly #subscribe: () => void;
  #read: () => number = () => Date.now();

  constructor(intervalMs = 250) {
    this.#subscribe = createSubscriber((update) => {
      const timer = setInterval(update, intervalMs);
      return () => clearInterval(timer);
    });
  }

  /** Epoch ms (world time, once the page says so); reading it inside an effect or template re-runs it every tick. */
  get now(): number {
    this.#subscribe();
    return this.#read();
  }

  /** Reads the page's world clock from now on: countdowns ("attempt 2 in 1.5 s") stand still while it is paused. */
  readFrom(now: () => number): void {
    this.#read = now;
  }
}

export const clock = new Clock();
