/**
 * The page's main-thread CPU time per `tasks/get` on its own path (the
 * worker-roundtrip bench's `memory-net` target), for one or more builds of
 * the bench pages side by side in one browser: each build in its own tab,
 * one-second runs with 16 requests in flight taken in turn, so a noisy
 * moment on a shared machine hits every build alike. CPU time is
 * Chromium's `ThreadTime` metric (CDP `Performance.getMetrics`), which a
 * busy machine does not inflate the way it does wall time.
 *
 *   npx tsx scripts/bench/page-path-cpu.ts [dist-bench folder...] [--rounds N]
 *   (build a before copy with `npx vite build --config vite.bench.config.ts --outDir <folder>`)
 */
import type { CDPSession, Page } from '@playwright/test';
import { parseArgs } from 'node:util';
import { launchChromium } from './chromium.ts';
import { openRoundtripPage } from './roundtrip-page.ts';
import { serveStatic, type StaticServer } from './static-server.ts';
import { threadSeconds } from './thread-seconds.ts';

const IN_FLIGHT = 16;
const { values, positionals } = parseArgs({
  options: { rounds: { type: 'string', default: '10' } },
  allowPositionals: true,
});
const folders = positionals.length > 0 ? positionals : ['dist-bench'];
const rounds = Number(values.rounds);

interface Side {
  folder: string;
  page: Page;
  cdp: CDPSession;
  cpuSeconds: number;
  done: number;
}

const browser = await launchChromium();
const servers: StaticServer[] = [];
try {
  const sides: Side[] = [];
  for (const folder of folders) {
    const server = await serveStatic(folder, { isolated: true });
    servers.push(server);
    const { page, cdp } = await openRoundtripPage(browser, server.url);
    await cdp.send('Performance.enable');
    sides.push({ folder, page, cdp, cpuSeconds: 0, done: 0 });
  }
  for (let round = 0; round < rounds; round++) {
    // Each round in the other order, so neither build always runs first.
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      const before = await threadSeconds(side.cdp);
      side.done += await side.page.evaluate((n) => window.bench.saturateFor(1000, n), IN_FLIGHT);
      side.cpuSeconds += (await threadSeconds(side.cdp)) - before;
    }
  }
  for (const { folder, done, cpuSeconds } of sides)
    console.log(
      `${folder}: ${((cpuSeconds * 1e6) / done).toFixed(1)} µs main-thread CPU per tasks/get, ${(done / rounds).toFixed(0)} req/s (${done} in ${rounds} s, ${IN_FLIGHT} in flight)`,
    );
} finally {
  await browser.close();
  for (const server of servers) await server.close();
}
