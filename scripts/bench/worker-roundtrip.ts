/**
 * A tasks/get through our client, transport and server in a real Worker,
 * against a bare postMessage echo to a worker (the physical floor), with the
 * in-memory and the IndexedDB store: round trip p50 and p99, one at a time,
 * and sustained throughput with requests kept in flight. Measured in
 * Chromium by bench/worker-roundtrip.ts (built into dist-bench/).
 */
import type { RunOptions, Target } from '../../bench/worker-roundtrip.ts';
import type { Page } from '@playwright/test';
import type { BenchContext, BenchPart } from './context.ts';
import { formatProfile, startProfile } from './cpu-profile.ts';
import { figure, percentile, type Figure } from './figures.ts';
import { attachToWorker } from './worker-profile.ts';

const PART = 'worker-roundtrip';
/** Outstanding requests in the throughput run: the page following many tasks keeps several in flight. */
const IN_FLIGHT = 16;
/** Interleaved blocks: every target takes a turn per block. */
const BLOCKS = 5;

export const workerRoundTrip: BenchPart = {
  name: PART,
  async run(ctx) {
    const count = ctx.small ? 200 : 3000;
    const warmup = ctx.small ? 50 : 300;
    const seconds = ctx.small ? 0.5 : 5;
    const started = Date.now();
    const context = await (await ctx.browser()).newContext();
    try {
      const page = await context.newPage();
      page.on('pageerror', (error) => ctx.log(`[${PART}] page error: ${error.message}`));
      await page.goto(`${ctx.benchUrl}/worker-roundtrip.html`);
      await page.waitForFunction(() => 'bench' in window);
      if (!(await page.evaluate(() => crossOriginIsolated)))
        ctx.log(`[${PART}] not cross-origin isolated: times are rounded to 0.1 ms`);
      ctx.log(`[${PART}] bench page ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      ctx.log(
        `[${PART}] ${count} sequential round trips and ${seconds} s with ${IN_FLIGHT} in flight, per target, in ${BLOCKS} interleaved blocks`,
      );
      const targets: Target[] = ['echo', 'memory', 'indexeddb', 'memory-net'];
      const options: RunOptions = {
        targets,
        count,
        warmup,
        throughputMs: seconds * 1000,
        inFlight: IN_FLIGHT,
        blocks: BLOCKS,
      };
      const { trips, rates } = await page.evaluate((o) => window.bench.run(o), options);
      const echo = trips['echo'] ?? [];
      const memory = trips['memory'] ?? [];
      const indexeddb = trips['indexeddb'] ?? [];
      const viaNetwork = trips['memory-net'] ?? [];
      const figures: Figure[] = [];
      for (const p of [50, 99]) {
        const floor = { name: `echo p${p}`, value: percentile(echo, p) };
        figures.push(
          figure(PART, `tasks/get p${p}, memory store`, percentile(memory, p), 'ms', floor),
          figure(PART, `tasks/get p${p}, IndexedDB store`, percentile(indexeddb, p), 'ms', floor),
          figure(
            PART,
            `tasks/get p${p}, memory, via clean FaultyNetwork`,
            percentile(viaNetwork, p),
            'ms',
            floor,
          ),
        );
      }
      const echoRef = { name: 'echo', value: rates['echo'] ?? NaN };
      figures.push(
        figure(
          PART,
          `tasks/get throughput, memory (${IN_FLIGHT} in flight)`,
          rates['memory'] ?? NaN,
          'req/s',
          echoRef,
        ),
        figure(
          PART,
          `tasks/get throughput, IndexedDB (${IN_FLIGHT} in flight)`,
          rates['indexeddb'] ?? NaN,
          'req/s',
          echoRef,
        ),
        figure(
          PART,
          `tasks/get throughput, memory via clean FaultyNetwork`,
          rates['memory-net'] ?? NaN,
          'req/s',
          echoRef,
        ),
      );
      // Profiled after the measured runs, so the profiler's own cost is in no figure.
      await profilePagePath(ctx, await context.newPage(), ctx.small ? 2 : 5);
      return figures;
    } finally {
      await context.close();
    }
  },
};

/**
 * CPU profiles of the page and of its server worker while the page's own
 * path (`memory-net`) is kept saturated: the top self times of each thread
 * go to the log, the profiles to `bench-results/`.
 */
async function profilePagePath(ctx: BenchContext, page: Page, seconds: number): Promise<void> {
  await page.goto(`${ctx.benchUrl}/worker-roundtrip.html`);
  await page.waitForFunction(() => 'bench' in window);
  await page.evaluate(() => window.bench.prepare('memory-net', 100));
  const worker = await attachToWorker(await ctx.browser(), /\/worker-[^/]*\.js$/);
  try {
    const cdp = await page.context().newCDPSession(page);
    const stopPage = await startProfile((m, p) => cdp.send(m as never, p as never));
    // The worker runs none of the page's entry points.
    const stopWorker = await startProfile(worker.send, { entryPoints: [] });
    const done = await page.evaluate(({ ms, inFlight }) => window.bench.saturateFor(ms, inFlight), {
      ms: seconds * 1000,
      inFlight: IN_FLIGHT,
    });
    const pageFile = `${ctx.outDir}/${PART}-page.cpuprofile`;
    const workerFile = `${ctx.outDir}/${PART}-worker.cpuprofile`;
    ctx.log(`[${PART}] profiled ${done} tasks/get via clean FaultyNetwork in ${seconds} s`);
    for (const line of formatProfile(`[${PART}] page, ${pageFile}`, await stopPage(pageFile)))
      ctx.log(line);
    for (const line of formatProfile(
      `[${PART}] server worker, ${workerFile}`,
      await stopWorker(workerFile),
      'worker',
    ))
      ctx.log(line);
  } finally {
    await worker.detach();
  }
}
