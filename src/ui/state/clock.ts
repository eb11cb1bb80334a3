/**
 * A ticking "now" for countdowns. It ticks only while something on screen
 * reads it (createSubscriber starts the timer with the first reader and
 * stops it with the last), like svelte/reactivity's MediaQuery.
 */
import { createSubscriber } from 'svelte/reactivity';

export class Clock {
  readonly #subscribe: () => void;

  constructor(intervalMs = 250) {
    this.#subscribe = createSubscriber((update) => {
      const timer = setInterval(update, intervalMs);
      return () => clearInterval(timer);
    });
  }

  /** Epoch ms; reading it inside an effect or template re-runs it every tick. */
  get now(): number {
    this.#subscribe();
    return Date.now();
  }
}

export const clock = new Clock();
