/**
 * Simulated time for tests that run real servers: timers and `Date` are
 * vitest's fake ones, while everything that is not a timer (MessagePorts,
 * fake-indexeddb's `setImmediate` turns, `crypto.subtle`, loopback HTTP)
 * stays real. `simulate` runs a piece of work to its end by letting that
 * real work settle, then moving the clock to the next timer, one timer at a
 * time: seconds of leases, heartbeats, TTLs and polls pass in milliseconds,
 * and a loaded machine can no longer make a heartbeat late.
 */
import { vi } from 'vitest';

/** Timers and Date are fake; setImmediate stays real, because fake-indexeddb and the settling below run on it. */
export function useSimulatedTime(): void {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
}

const realTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface SimulateOptions {
  /** Simulated time after which the work counts as stuck (the test fails). */
  maxMs?: number;
  /** Real work in flight that the clock must wait for (e.g. HTTP requests on loopback). */
  busy?: () => boolean;
  /** Quiet real turns that count as settled; fewer will do when `busy` tracks all the real work. */
  quietTurns?: number;
}

/** How many quiet real turns count as "nothing more happens until a timer fires". */
const QUIET_TURNS = 8;
/** Real time allowed for real work to settle between two timers before the run counts as stuck. */
const REAL_SETTLE_LIMIT_MS = 10_000;

/** Lets real work run: a few turns of the event loop, and more while `busy` says something is in flight. */
async function settle(busy: () => boolean, quietTurns: number): Promise<void> {
  const started = performance.now();
  for (let quiet = 0; quiet < quietTurns;) {
    await realTurn();
    if (busy()) quiet = 0;
    else quiet++;
    if (performance.now() - started > REAL_SETTLE_LIMIT_MS)
      throw new Error('real work did not settle within 10 s between two timers');
  }
}

/**
 * Runs `work` on the simulated clock until it settles, and returns (or
 * throws) what it does. Fails if it takes more than `maxMs` of simulated time.
 */
export async function simulate<T>(
  work: Promise<T> | (() => Promise<T>),
  { maxMs = 120_000, busy = () => false, quietTurns = QUIET_TURNS }: SimulateOptions = {},
): Promise<T> {
  const running = typeof work === 'function' ? work() : work;
  let settled = false;
  running.then(
    () => (settled = true),
    () => (settled = true),
  );
  const deadline = Date.now() + maxMs;
  let idleSince = performance.now();
  for (;;) {
    await settle(busy, quietTurns);
    if (settled) return running;
    if (Date.now() > deadline)
      throw new Error(`still not settled after ${maxMs} ms of simulated time`);
    if (vi.getTimerCount() > 0) {
      await vi.advanceTimersToNextTimerAsync();
      idleSince = performance.now();
    } else if (performance.now() - idleSince > REAL_SETTLE_LIMIT_MS)
      throw new Error('no timer left and the work still not settled after 10 s of real time');
  }
}

/** Lets `ms` of simulated time pass, timer by timer, with real work settled after each. */
export async function passTime(
  ms: number,
  options: Omit<SimulateOptions, 'maxMs'> = {},
): Promise<void> {
  const end = new Promise<void>((resolve) => setTimeout(resolve, ms));
  await simulate(end, { ...options, maxMs: ms + 1 });
}
