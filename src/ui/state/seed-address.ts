/**
 * The fault seed in the address from the moment the page picks it: written at
 * once (in place, no history entry), and again whenever the seed changes
 * (the fault panel's seed field, a scenario's setup) or Back brings an older address. A reload then opens on
 * the same seed, so the same faults strike in the same order, and the
 * address bar is always a link a colleague can open.
 */
import type { FaultEvent } from '../../net/fault-log.ts';
import { addressWithSeed } from '../../record/setup-address.ts';

/** What this reads of the page's network: its seed, and the fault log that says when it changed. */
export interface SeededNetwork {
  readonly seed: number;
  readonly log: { subscribe(listener: (event: FaultEvent) => void): () => void };
}

/** Keeps `?seed=` equal to the network's seed; returns the unsubscribe. */
export function keepSeedInAddress(network: SeededNetwork): () => void {
  const write = (seed: number) => {
    const next = addressWithSeed(location.href, seed);
    if (next !== location.href) history.replaceState(history.state, '', next);
  };
  write(network.seed);
  // Back and Forward bring an older address, whose seed may be an earlier one.
  const back = () => write(network.seed);
  addEventListener('popstate', back);
  const unsubscribe = network.log.subscribe((event) => {
    if (event.kind === 'conditions.changed') write(event.seed);
  });
  return () => {
    removeEventListener('popstate', back);
    unsubscribe();
  };
}
