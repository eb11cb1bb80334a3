/**
 * The schedule's own ceiling, as page-follow's same-run reference: the same
 * tasks (1,000 long `slow_compute`, or 100 in the small run) on the real
 * server worker, polled every 250 ms as the page paces them (T12: each next
 * poll 250 ms after the previous was sent, and no sooner than 225 ms after its
 * answer: `nextPollDueAt`) on plain `setTimeout`, by the smallest client there is
 * (bench/floor-follower.ts, on the bench page bench/schedule-floor.ts): on
 * the bare port, and through the page's own client path (`RpcClient`, a
 * clean `FaultyNetwork`, `PortTransport`) with no machine, journal or UI.
 * What it achieves says how much of page-follow's gap to the asked rate is
 * the page and how much the schedule itself; its own timestamps split each
 * cycle (round trip, lateness) for free, and its variants say what bursts
 * (polls per `postMessage`) do to it.
 */
import type { CDPSession } from '@playwright/test';
import type { Variant, WindowOptions } from '../../bench/schedule-floor.ts';
import type { FollowerRecord } from '../../bench/floor-follower.ts';
import type { BenchPart } from './context.ts';
import { figure, type Figure } from './figures.ts';
import { mergeRecords, rankByRate, scheduleFigures } from './schedule-split.ts';

const PART = 'schedule-floor';
export const POLL_MS = 250;
/** Interleaved blocks: every variant takes a turn per block, in turn forwards and backwards. */
const BLOCKS = 2;

const PATH_WORDS: Record<Variant['path'], string> = {
  bare: 'bare port',
  page: "page's client path",
};

/** What a variant is called in the figures. */
export function variantLabel(tasks: number, { path, burst }: Variant): string {
  const how =
    burst === 1 ? 'a timer per poll' : burst >= tasks ? 'all in one burst' : `bursts of ${burst}`;
  return `${tasks} tasks @ ${POLL_MS} ms, ${PATH_WORDS[path]}, ${how}`;
}

/** The name of the figure the goals (goals.ts) read: the best rate any variant of `path` achieved in the run, the schedule's ceiling there. */
export function bestAchievedName(tasks: number, path: Variant['path']): string {
  return `tasks/get achieved, ${tasks} tasks @ ${POLL_MS} ms, ${PATH_WORDS[path]}, its best variant`;
}

/** Every variant run: the bare port at bursts of 1 up to all tasks at once, and the page's path one by one and in bursts. */
function variants(tasks: number): Variant[] {
  const bursts = [1, 10, 100, tasks].filter((b, i, all) => b <= tasks && all.indexOf(b) === i);
  return [
    ...bursts.map((burst): Variant => ({ path: 'bare', burst })),
    { path: 'page', burst: 1 },
    { path: 'page', burst: Math.min(100, tasks) },
  ];
}

async function threadSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN;
}

export const scheduleFloor: BenchPart = {
  name: PART,
  async run(ctx) {
    const tasks = ctx.small ? 100 : 1000;
    const warmupMs = ctx.small ? 500 : 2000;
    const measureMs = ctx.small ? 1500 : 5000;
    const context = await (await ctx.browser()).newContext();
    try {
      const page = await context.newPage();
      page.on('pageerror', (error) => ctx.log(`[${PART}] page error: ${error.message}`));
      await page.goto(`${ctx.benchUrl}/schedule-floor.html`);
      await page.waitForFunction(() => 'floor' in window);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const started = Date.now();
      await page.evaluate(({ tasks, pollMs }) => window.floor.setup(tasks, pollMs), {
        tasks,
        pollMs: POLL_MS,
      });
      ctx.log(
        `[${PART}] ${tasks} slow_compute tasks started in ${(Date.now() - started) / 1000} s`,
      );
      const all = variants(tasks);
      ctx.log(
        `[${PART}] per variant, ${BLOCKS} windows of ${warmupMs / 1000} s warm-up + ${measureMs / 1000} s measured, interleaved: ${all.map((v) => variantLabel(tasks, v)).join('; ')}`,
      );
      const records = new Map<Variant, FollowerRecord[]>(all.map((v) => [v, []]));
      const cpu = new Map<Variant, number>(all.map((v) => [v, 0]));
      for (let block = 0; block < BLOCKS; block++) {
        for (const variant of block % 2 === 0 ? all : [...all].reverse()) {
          const options: WindowOptions = { variant, pollMs: POLL_MS, warmupMs };
          await page.evaluate((o) => window.floor.startWindow(o), options);
          const before = await threadSeconds(cdp);
          const record = await page.evaluate((ms) => window.floor.measureWindow(ms), measureMs);
          cpu.set(variant, cpu.get(variant)! + (await threadSeconds(cdp)) - before);
          if (record.errors.length > 0)
            throw new Error(
              `${variantLabel(tasks, variant)}: ${record.errors.slice(0, 3).join('; ')}`,
            );
          records.get(variant)!.push(record);
        }
      }
      const figures: Figure[] = [];
      const merged = new Map(all.map((v) => [v, mergeRecords(records.get(v)!)]));
      for (const path of ['bare', 'page'] as const) {
        // Which variant does best differs with the load: the ceiling is whichever did, this run.
        const ranked = rankByRate([...merged].filter(([v]) => v.path === path));
        const best = ranked[0];
        if (!best) continue;
        figures.push(
          figure(
            PART,
            bestAchievedName(tasks, path),
            best.rate,
            'req/s',
            { name: 'asked', value: (tasks * 1000) / POLL_MS },
            `the best was ${variantLabel(tasks, best.key)}; ${ranked.map((r) => `${r.rate.toFixed(0)} with ${r.key.burst === 1 ? 'a timer per poll' : `bursts of ${r.key.burst}`}`).join(', ')}`,
          ),
        );
      }
      for (const variant of all)
        figures.push(
          ...scheduleFigures(
            PART,
            variantLabel(tasks, variant),
            merged.get(variant)!,
            tasks,
            POLL_MS,
            cpu.get(variant),
          ),
        );
      return figures;
    } finally {
      await context.close();
    }
  },
};
