/**
 * Workers for durable-job tests, in Node under fake-indexeddb, on the
 * simulated clock: each is a playground server on a shared database with a
 * client connected as alice. A test file calling `useDurableWorkers()` gets
 * fake timers around each test and every worker closed after it.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, vi } from 'vitest';
import { IdbTaskStore } from '../../../src/server/idb/idb-task-store.ts';
import type { PlaygroundServerOptions } from '../../../src/server/playground-server.ts';
import { createHarness, type Harness } from './harness.ts';
import { simulate, useSimulatedTime } from './simulated-time.ts';

/** Short leases (on the simulated clock) so a take-over needs few timers. */
const FAST = {
  runner: { leaseMs: 300, heartbeatMs: 100 },
  adoptIntervalMs: 50,
  sweepIntervalMs: 0,
} satisfies PlaygroundServerOptions;

export interface DurableWorker {
  harness: Harness;
  store: IdbTaskStore;
}

const open: DurableWorker[] = [];
let databases = 0;

/** A database name no other test uses. */
export const freshDb = (): string => `durable-${++databases}`;

/** One "worker": a playground server on database `name`, and a client connected to it as alice. */
export async function worker(
  name: string,
  options: PlaygroundServerOptions = {},
): Promise<DurableWorker> {
  const store = await IdbTaskStore.open(name);
  const harness = await createHarness({ ...FAST, ...options, store });
  const node = { harness, store };
  open.push(node);
  return node;
}

/** What killing a worker does: its jobs stop mid-step and nothing renews their leases. */
export function kill(node: DurableWorker): void {
  void node.harness.close();
  node.store.close();
}

/** Reads until `done` holds, on the simulated clock (every 20 ms); fails after `timeoutMs` of it. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 8000,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Simulated time around each test of the calling file, and its workers closed after each. */
export function useDurableWorkers(): void {
  beforeEach(useSimulatedTime);
  afterEach(async () => {
    try {
      await simulate(async () => {
        for (const node of open.splice(0)) {
          await node.harness.close();
          node.store.close();
        }
      });
    } finally {
      vi.useRealTimers();
    }
  });
}
