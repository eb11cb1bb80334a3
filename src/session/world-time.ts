/**
 * The page's time control: the world clock every timer of the page runs on
 * (the session's network, clients and task actors are given it as their
 * scheduler), the server's clock made to follow it (a worker, or every
 * node's worker in a cluster, through the worker control channel), and the
 * breakpoints on the simulated network that pause it. A remote server keeps
 * its own time: then only the page and the network pause, and
 * `serverFollows` says so.
 */
import type { WorldClock } from '../clock/world-clock.ts';
import { Breakpoints } from '../net/breakpoints.ts';
import type { FaultyNetwork } from '../net/faulty-network.ts';
import type { ServerEndpoint } from './server-endpoint.ts';

export class WorldTime {
  readonly clock: WorldClock;
  readonly breakpoints: Breakpoints;
  /** Whether the server's timers (job steps, leases, TTLs) pause with the world. */
  readonly serverFollows: boolean;
  readonly #unfollow: (() => void) | undefined;

  constructor(clock: WorldClock, network: FaultyNetwork, endpoint: ServerEndpoint) {
    this.clock = clock;
    this.breakpoints = new Breakpoints(network, (reason) => clock.pause(reason));
    this.#unfollow = endpoint.followClock?.(clock);
    this.serverFollows = this.#unfollow !== undefined;
  }

  /** Pauses a running world, resumes a paused one (the header's button and its shortcut). */
  toggle(): void {
    if (this.clock.paused) this.clock.resume();
    else this.clock.pause();
  }

  /** The server stops following (the page goes away). */
  close(): void {
    this.#unfollow?.();
  }
}
