/**
 * What the page keeps while it follows many tasks for minutes, not seconds:
 * the live heap (after a forced GC, so garbage not yet collected is not
 * counted) early in the follow and again after a long one, and the garbage
 * collections of a trace at the end.
 *
 * page-follow measures a window seconds after its tasks start; what the
 * page keeps per event (task histories, the run recorder, the wire log)
 * keeps growing after that until each reaches its bound, and every major GC
 * marks all of it on the main thread, in a task the page cannot draw
 * through. This part sees where the heap settles, and what the collections
 * then cost.
 */
import type { CDPSession } from '@playwright/test';
import { openApp, startTasks } from './app-page.ts';
import type { BenchPart } from './context.ts';
import { figure } from './figures.ts';
import { traceWhile, type TraceEvent } from './frame-trace.ts';

const PART = 'page-heap';
const POLL_MS = 250;

async function liveHeapMb(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usedSize / 1e6;
}

/** The busiest renderer main thread's events named `name`, durations in ms. */
function durations(events: readonly TraceEvent[], name: string): number[] {
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = new Map<string, number>();
  for (const e of events)
    if (e.name === 'RunTask' && mains.has(`${e.pid}:${e.tid}`))
      tasks.set(`${e.pid}:${e.tid}`, (tasks.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const busiest = [...tasks].sort((a, b) => b[1] - a[1])[0]?.[0];
  return events
    .filter((e) => e.name === name && e.ph === 'X' && `${e.pid}:${e.tid}` === busiest)
    .map((e) => (e.dur ?? 0) / 1000);
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

export const pageHeap: BenchPart = {
  name: PART,
  async run(ctx) {
    const tasks = ctx.small ? 100 : 1000;
    const early = ctx.small ? 5 : 20;
    const late = ctx.small ? 20 : 150;
    const traceSeconds = ctx.small ? 3 : 8;
    const context = await (
      await ctx.browser()
    ).newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const page = await context.newPage();
      page.on('pageerror', (error) => ctx.log(`[${PART}] page error: ${error.message}`));
      const cdp = await context.newCDPSession(page);
      await cdp.send('HeapProfiler.enable');
      await openApp(page, ctx.appUrl);
      const idle = await liveHeapMb(cdp);
      ctx.log(`[${PART}] idle page: ${idle.toFixed(1)} MB live; starting ${tasks} tasks…`);
      await startTasks(page, tasks, { seconds: 600, pollIntervalMs: POLL_MS }, 600_000);
      const startedAt = Date.now();
      const at = async (seconds: number) => {
        await page.waitForTimeout(Math.max(0, seconds * 1000 - (Date.now() - startedAt)));
        const mb = await liveHeapMb(cdp);
        ctx.log(`[${PART}] after ${seconds} s of following: ${mb.toFixed(1)} MB live`);
        return mb;
      };
      const earlyMb = await at(early);
      const lateMb = await at(late);
      const { events } = await traceWhile(
        cdp,
        `${ctx.outDir}/${PART}.trace.json`,
        ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'],
        () => page.waitForTimeout(traceSeconds * 1000),
      );
      const major = durations(events, 'MajorGC');
      const minor = durations(events, 'MinorGC');
      const longest = Math.max(0, ...durations(events, 'RunTask'));
      const label = `${tasks} tasks @ ${POLL_MS} ms`;
      const perSecond = (ms: number) => ms / traceSeconds;
      return [
        figure(PART, `live heap after ${early} s, ${label}`, earlyMb, 'MB', {
          name: 'the idle page',
          value: idle,
        }),
        figure(
          PART,
          `live heap after ${late} s, ${label}`,
          lateMb,
          'MB',
          { name: `the same page after ${early} s`, value: earlyMb },
          'where the kept histories, recordings and logs settle: near 1× once each reached its bound early',
        ),
        figure(
          PART,
          `major GC on the main thread after ${late} s, ${label}`,
          perSecond(sum(major)),
          'ms/s',
          {
            name: 'minor GC',
            value: perSecond(sum(minor)),
          },
        ),
        figure(PART, `longest major GC after ${late} s, ${label}`, Math.max(0, ...major), 'ms', {
          name: 'the longest main-thread task in the same trace',
          value: longest,
        }),
      ];
    } finally {
      await context.close();
    }
  },
};
