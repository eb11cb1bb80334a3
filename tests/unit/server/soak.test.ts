/**
 * The soak's short variant (`npm run soak` is the long one): the Node host
 * in-process, over real loopback HTTP, under a few polling clients for 18 s
 * of simulated time (a few seconds of wall clock), with a 2 s purge delay
 * so expired tasks are deleted within the run (T13). The clock stands still
 * while a request is in flight, so load on the machine cannot make a poll
 * late. Nothing is asserted on timing or memory: only that expired tasks go,
 * that every task the clients created is either still young or gone, and
 * that nothing went wrong.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { runSoakLoad } from '../../../scripts/soak-load.ts';
import { startNodeHost, type NodeHost } from '../../../src/server/node-host.ts';
import {
  createPlaygroundServer,
  type PlaygroundServer,
} from '../../../src/server/playground-server.ts';
import { flashSaleQuote } from '../../../src/server/tools/flash-sale.ts';
import { simulate, useSimulatedTime } from '../helpers/simulated-time.ts';

const CLIENTS = 3;
const TASKS_PER_CLIENT = 2;
const PURGE_AFTER_MS = 2000;
const RUN_MS = 18_000;
const TTL_MS = flashSaleQuote.ttlMs ?? NaN;

let server: PlaygroundServer;
let host: NodeHost;

/** Requests on the wire: the simulated clock waits for them, as a server waits for nothing. */
let inFlight = 0;

beforeAll(async () => {
  useSimulatedTime();
  const realFetch = globalThis.fetch;
  // The whole exchange counts, body included: the client acts only once it has read the answer.
  vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
    inFlight++;
    try {
      const response = await realFetch(...args);
      const body = await response.text();
      return new Response(body, { status: response.status, headers: response.headers });
    } finally {
      inFlight--;
    }
  });
  server = createPlaygroundServer({ purgeAfterMs: PURGE_AFTER_MS });
  host = await startNodeHost({ host: '127.0.0.1', port: 0, server });
});
afterAll(async () => {
  await host.close();
  await server.close();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

it('T13: under sustained polling from several identities, expired tasks are purged and the kept tasks stay bounded', () =>
  simulate(
    async () => {
      expect(TTL_MS).toBe(4000);
      const stop = new AbortController();
      const counts: number[] = [];
      const sampler = setInterval(
        () => void server.store.all().then((tasks) => counts.push(tasks.length)),
        1000,
      );
      const load = runSoakLoad({
        url: host.url,
        clients: CLIENTS,
        tasksPerClient: TASKS_PER_CLIENT,
        purgeAfterMs: PURGE_AFTER_MS,
        signal: stop.signal,
      });
      setTimeout(() => stop.abort(), RUN_MS);
      const result = await load;
      clearInterval(sampler);
      const keptAtEnd = (await server.store.all()).length;

      expect(result.errors).toEqual([]);
      // T13: never gone inside its TTL; every task checked after TTL + purge delay was gone.
      expect(result.goneEarly).toEqual([]);
      expect(result.notPurged).toEqual([]);
      expect(result.purgeConfirmed).toBeGreaterThan(0);
      // The job outlives its 4 s TTL, so every task ends failed by expiry, none completed.
      expect(result.expired).toBe(result.terminal['failed']);
      expect(result.terminal['completed']).toBeUndefined();
      expect(keptAtEnd).toBeLessThan(result.created);

      // A slot's task cannot end before its TTL (the job is slower), so a slot starts at most one task per TTL;
      // a task is kept for TTL + purge delay (+ up to 6 s of sweep and scheduling lag, generously): at most 3 per slot.
      // Were nothing purged, a slot would have about RUN_MS / TTL_MS = 4.5 of them by the end.
      const bound =
        CLIENTS * TASKS_PER_CLIENT * Math.ceil((TTL_MS + PURGE_AFTER_MS + 6000) / TTL_MS);
      expect(counts.length).toBeGreaterThan(0);
      expect(Math.max(...counts)).toBeLessThanOrEqual(bound);
    },
    { busy: () => inFlight > 0, quietTurns: 2 },
  ));
