/**
 * A tiny typed event emitter: the session's only way of telling anyone what
 * changed. Each event name maps to its payload type; `on` returns the
 * function that unsubscribes, the shape `createSubscriber` (svelte/reactivity)
 * and `useSyncExternalStore`-style adapters expect.
 */
export type Listener<T> = (payload: T) => void;

export class Emitter<Events extends object> {
  readonly #listeners = new Map<keyof Events, Set<Listener<never>>>();

  /** Calls `listener` on every `type` event from now on; returns the unsubscribe. */
  on<K extends keyof Events>(type: K, listener: Listener<Events[K]>): () => void {
    let set = this.#listeners.get(type);
    if (!set) this.#listeners.set(type, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  /** Tells every listener of `type`; a listener that throws does not stop the others. */
  emit<K extends keyof Events>(type: K, payload: Events[K]): void {
    const set = this.#listeners.get(type);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<Events[K]>)(payload);
      } catch (error) {
        console.error(`[session] a listener of ${String(type)} failed`, error);
      }
    }
  }
}
