/**
 * The page following 1,000 tasks polled every 250 ms, in Chromium against
 * the production build, against the same page idle (connected, no task):
 * frame time p95 (requestAnimationFrame deltas; headless Chromium paces
 * frames at 60 Hz, so 16.7 ms is a frame on time), the longest main-thread
 * task (PerformanceObserver 'longtask', 50 ms and up) and what the longest
 * frames ran (Long Animation Frames, `long-frames.ts`), the page's JS heap
 * after a forced GC and its DOM nodes (CDP Performance.getMetrics), and the
 * tasks/get actually achieved against what 1,000 tasks at 250 ms ask for.
 * The server worker runs the in-memory store; its own heap is not counted.
 *
 * `PAGE_FOLLOW_SLICES='default on'` (the page's `slices=` address values)
 * runs each run once per variant in the same bench run, interleaved (the
 * list at the top A then B, scrolled B then A), so slicing the main thread's
 * work (src/clock/frame-slices.ts) is compared with whole tasks on the same
 * load; the default variant keeps the figures' names, the others are named
 * after their value.
 */
import type { CDPSession, Page } from '@playwright/test';
import { openApp, startTasks, tasksGetSent } from './app-page.ts';
import type { BenchPart } from './context.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { fetchMap, formatProfile, profilePage, sourceFor } from './cpu-profile.ts';
import { figure, percentile } from './figures.ts';
import { formatTrace, tracePage, type FrameTrace } from './frame-trace.ts';
import {
  formatLongFrames,
  locatorFor,
  longestFrames,
  type LongFrameEntry,
  type LongFrameSummary,
} from './long-frames.ts';
import {
  formatPollCycle,
  cycleFigures,
  RECORD_POLL_CYCLE_IN_PAGE,
  startPollCycle,
  stopPollCycle,
  type PollCycle,
} from './poll-cycle.ts';
import { threadSeconds } from './thread-seconds.ts';

const PART = 'page-follow';
/**
 * `PAGE_FOLLOW_CYCLE=on`: also where each poll's cycle goes (poll-cycle.ts). Off by default: its
 * probes wrap the page's setTimeout and ports, and cost the page what it measures (measured:
 * main thread 57% busy without them, 65-78% with, at about the same tasks/get).
 */
const PROBE_CYCLE = process.env.PAGE_FOLLOW_CYCLE === 'on';
const POLL_MS = 250;
/** How fast the scrolled run moves through the list: a fast fling, so cards are drawn and dropped every frame. */
const SCROLL_PX_PER_S = 3000;
/** The two runs' labels, as the goals (goals.ts) find them. */
export const AT_TOP = 'list at the top';
export const SCROLLED = `list scrolled at ${SCROLL_PX_PER_S} px/s (every card drawn in turn)`;

/** Kept from the first script on, so no long task is missed (a string: tsx's helpers do not exist in the page). */
const OBSERVE_LONG_TASKS = `
  window.__benchLongTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__benchLongTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  window.__benchLongFrames = [];
  if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame'))
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        window.__benchLongFrames.push({
          startTime: e.startTime, duration: e.duration, blockingDuration: e.blockingDuration,
          renderStart: e.renderStart, styleAndLayoutStart: e.styleAndLayoutStart,
          scripts: e.scripts.map((s) => ({
            invoker: s.invoker, invokerType: s.invokerType, sourceURL: s.sourceURL,
            sourceFunctionName: s.sourceFunctionName, sourceCharPosition: s.sourceCharPosition,
            startTime: s.startTime, duration: s.duration,
            forcedStyleAndLayoutDuration: s.forcedStyleAndLayoutDuration,
          })),
        });
    }).observe({ type: 'long-animation-frame', buffered: true });
`;

/**
 * Scrolls the task list back and forth at `px` px/s until the returned promise's stop is called:
 * the scrolled run's profile and trace are taken while scrolling goes on, so they show what
 * scrolling costs, not the list standing still (a string: tsx's helpers do not exist in the page).
 */
async function keepScrolling(page: Page, pxPerS: number): Promise<() => Promise<void>> {
  await page.evaluate(`(() => {
    let scroller = document.querySelector('section[aria-labelledby="tasks-heading"]').parentElement;
    while (scroller && !/auto|scroll/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement;
    scroller ??= document.scrollingElement;
    let direction = 1;
    let last = performance.now();
    window.__benchScrolling = true;
    const step = (now) => {
      if (!window.__benchScrolling) return;
      scroller.scrollTop += direction * ${pxPerS} * (now - last) / 1000;
      if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) direction = -1;
      else if (scroller.scrollTop <= 0) direction = 1;
      last = now;
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  })()`);
  return async () => {
    await page.evaluate('window.__benchScrolling = false');
  };
}

/** The page's own slicing (no `slices=` in its address). */
const DEFAULT_SLICES = 'default';

/** The `slices=` variants to run side by side (PAGE_FOLLOW_SLICES, space-separated: `default on 8,100,40 chunks,100`), the page's default alone unless asked. */
function slicesToCompare(): string[] {
  const asked = (process.env.PAGE_FOLLOW_SLICES ?? DEFAULT_SLICES)
    .split(/\s+/)
    .filter((value) => /^(default|on|off|[\d.]+,[\d.]+,[\d.]+|chunks,\d+)$/.test(value));
  return asked.length > 0 ? [...new Set(asked)] : [DEFAULT_SLICES];
}

interface Window {
  frames: number[];
  longestTaskMs: number;
  /** Long tasks (50 ms and up) overlapping the window. */
  longTasks: number;
  /** The window's bounds on the page's clock, and the long animation frames overlapping it. */
  start: number;
  end: number;
  longFrames: LongFrameEntry[];
  /** CPU time of the page's main thread over the window (CDP's ThreadTime): what it got of a loaded machine. */
  cpuSeconds: number;
  heapMb: number;
  domNodes: number;
  seconds: number;
}

/** Frame deltas and the longest task over `seconds` (scrolling the task list back and forth at `scrollPxPerS`), then the heap after a GC. */
async function measure(
  page: Page,
  cdp: CDPSession,
  seconds: number,
  scrollPxPerS = 0,
): Promise<Window> {
  const threadSecondsBefore = await threadSeconds(cdp);
  const { frames, longestTaskMs, longTasks, start, end, longFrames } = await page.evaluate<{
    frames: number[];
    longestTaskMs: number;
    longTasks: number;
    start: number;
    end: number;
    longFrames: LongFrameEntry[];
  }>(`new Promise((resolve) => {
    const frames = [];
    let last = 0;
    let start = 0;
    // The task list's scroller: the column it sits in, or the page when the column does not scroll.
    let scroller = document.querySelector('section[aria-labelledby="tasks-heading"]').parentElement;
    while (scroller && !/auto|scroll/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement;
    scroller ??= document.scrollingElement;
    let direction = 1;
    const step = (now) => {
      frames.push(now - last);
      if (${scrollPxPerS} > 0) {
        scroller.scrollTop += direction * ${scrollPxPerS} * (now - last) / 1000;
        if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) direction = -1;
        else if (scroller.scrollTop <= 0) direction = 1;
      }
      last = now;
      if (now < start + ${seconds * 1000}) return requestAnimationFrame(step);
      // Long tasks are reported after they end: give the observer a turn, then take every task overlapping the window.
      setTimeout(() => {
        const overlapping = ({ startTime: at, duration: d }) => at + d >= start && at <= now;
        const tasks = window.__benchLongTasks.map(([startTime, duration]) => ({ startTime, duration })).filter(overlapping);
        const longest = tasks.reduce((max, { duration }) => Math.max(max, duration), 0);
        const longFrames = window.__benchLongFrames.filter(overlapping);
        // Those before the window are of no more use (the startup's frames would pile up run after run).
        window.__benchLongFrames = [];
        resolve({ frames, longestTaskMs: longest, longTasks: tasks.length, start, end: now, longFrames });
      }, 100);
    };
    requestAnimationFrame((now) => {
      start = last = now;
      requestAnimationFrame(step);
    });
  })`);
  const cpuSeconds = (await threadSeconds(cdp)) - threadSecondsBefore;
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  return {
    frames,
    longestTaskMs,
    longTasks,
    start,
    end,
    longFrames,
    heapMb: metric('JSHeapUsedSize') / 2 ** 20,
    domNodes: metric('Nodes'),
    seconds: (end - start) / 1000,
    cpuSeconds,
  };
}

interface FollowRun {
  idle: Window;
  follow: Window;
  pollsPerSecond: number;
  /** tasks/get sent per second of the main thread's CPU time: what a variant gets done with the CPU it got, so side-by-side runs compare on a loaded machine. */
  pollsPerCpuSecond: number;
  startup: number;
  trace: FrameTrace;
  longFrames: LongFrameSummary[];
  /** Where each task's cycle went in the window (poll-cycle.ts). */
  /** Only with `PAGE_FOLLOW_CYCLE=on`: the probes wrap the page's timers and ports, and cost it. */
  pollCycle: PollCycle | undefined;
}

/** The `top` longest frames of a window, their scripts mapped through the build's source maps (fetched with each script's text). */
async function summariseLongFrames(window: Window, top = 5): Promise<LongFrameSummary[]> {
  const scripts = new Map<string, { text: string; map: Awaited<ReturnType<typeof fetchMap>> }>();
  for (const url of new Set(window.longFrames.flatMap((f) => f.scripts.map((s) => s.sourceURL)))) {
    if (!/^https?:\/\/.*\.js$/.test(url)) continue;
    const response = await fetch(url).catch(() => undefined);
    if (response?.ok) scripts.set(url, { text: await response.text(), map: await fetchMap(url) });
  }
  return longestFrames(
    window.longFrames,
    locatorFor(scripts, sourceFor),
    window.start,
    window.end,
    top,
  );
}

/** One fresh page: idle, then `tasks` tasks started and followed; the list stays at the top, or is scrolled through all along. */
async function followOnce(
  ctx: Parameters<BenchPart['run']>[0],
  tasks: number,
  scrolled: boolean,
  slices: string,
): Promise<FollowRun> {
  const seconds = ctx.small ? 3 : 10;
  const idleSeconds = ctx.small ? 2 : 10;
  const context = await (
    await ctx.browser()
  ).newContext({ viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => ctx.log(`[${PART}] page error: ${error.message}`));
    await page.addInitScript(OBSERVE_LONG_TASKS);
    if (PROBE_CYCLE) await page.addInitScript(RECORD_POLL_CYCLE_IN_PAGE);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const variant = slices === DEFAULT_SLICES ? '' : `-slices-${slices}`;
    await openApp(page, variant ? `${ctx.appUrl}/?slices=${slices}` : ctx.appUrl);
    await page.waitForTimeout(ctx.small ? 500 : 1000);
    ctx.log(
      `[${PART}] ${scrolled ? 'list scrolled through' : 'list at the top'}, slices=${slices}: idle page, ${idleSeconds} s`,
    );
    const idle = await measure(page, cdp, idleSeconds);

    ctx.log(`[${PART}] starting ${tasks} slow_compute tasks polled every ${POLL_MS} ms…`);
    const startedAt = Date.now();
    await startTasks(page, tasks, { seconds: 600, pollIntervalMs: POLL_MS }, 600_000);
    const startup = (Date.now() - startedAt) / 1000;
    ctx.log(
      `[${PART}] all ${tasks} followed and polled after ${startup.toFixed(1)} s; settling, then ${seconds} s`,
    );
    await page.waitForTimeout(ctx.small ? 1000 : 2000);
    if (PROBE_CYCLE) await startPollCycle(page);
    const sentBefore = await tasksGetSent(page);
    const t0 = Date.now();
    const follow = await measure(page, cdp, seconds, scrolled ? SCROLL_PX_PER_S : 0);
    const sent = (await tasksGetSent(page)) - sentBefore;
    const pollsPerSecond = sent / ((Date.now() - t0) / 1000);
    const pollCycle = PROBE_CYCLE ? await stopPollCycle(page, POLL_MS) : undefined;
    const cycleLabel = `[${PART}] where a poll's cycle goes`;
    if (pollCycle)
      for (const line of formatPollCycle(cycleLabel, pollCycle, (tasks * 1000) / pollsPerSecond))
        ctx.log(line);
    const pollsPerCpuSecond = sent / follow.cpuSeconds;
    const longFrames = await summariseLongFrames(follow);
    // Profiled after the measured window, so the profiler's own cost is in no figure; the
    // scrolled run keeps scrolling meanwhile, so its profile and trace are of scrolling.
    const stopScrolling = scrolled ? await keepScrolling(page, SCROLL_PX_PER_S) : undefined;
    const file = `${ctx.outDir}/${PART}-${scrolled ? 'scrolled' : 'top'}${variant}.cpuprofile`;
    const profile = await profilePage(page, cdp, ctx.small ? 2 : 5, file);
    for (const line of formatProfile(`[${PART}] CPU profile, ${file}`, profile)) ctx.log(line);
    // Beside the profile's summary: what the window's longest frames ran (the profile came after them).
    const summaryFile = file.replace(/\.cpuprofile$/, '') + '.summary.json';
    const summary: unknown = JSON.parse(readFileSync(summaryFile, 'utf8'));
    writeFileSync(summaryFile, JSON.stringify({ ...(summary as object), longFrames }));
    const framesLabel = `[${PART}] long animation frames in the window (${follow.longTasks} long tasks)`;
    for (const line of formatLongFrames(framesLabel, longFrames)) ctx.log(line);
    // What "(program)" hides: style, layout and paint per frame, and the layout script forced.
    const traceFile = `${ctx.outDir}/${PART}-${scrolled ? 'scrolled' : 'top'}${variant}.trace.json`;
    const trace = await tracePage(cdp, ctx.small ? 2 : 5, traceFile);
    await stopScrolling?.();
    for (const line of formatTrace(`[${PART}] trace, ${traceFile}`, trace)) ctx.log(line);
    return {
      idle,
      follow,
      pollsPerSecond,
      pollsPerCpuSecond,
      startup,
      trace,
      longFrames,
      pollCycle,
    };
  } finally {
    await context.close();
  }
}

/**
 * Two runs: the page as a learner has it (the task list at the top; it is
 * virtualised, so only the cards near view are drawn), and the worst case:
 * the list scrolled back and forth all along, so cards are drawn and dropped
 * every frame (every card in turn). tasks/get achieved is counted where the
 * page hands requests to the worker's port.
 */
export const pageFollow: BenchPart = {
  name: PART,
  async run(ctx) {
    const tasks = ctx.small ? 100 : 1000;
    const figures = [];
    const variants = slicesToCompare();
    for (const scrolled of [false, true]) {
      // Interleaved: A then B at the top, B then A scrolled, so neither always runs on the later load.
      for (const slices of scrolled ? [...variants].reverse() : variants) {
        const {
          idle,
          follow,
          pollsPerSecond,
          pollsPerCpuSecond,
          startup,
          trace,
          longFrames,
          pollCycle,
        } = await followOnce(ctx, tasks, scrolled, slices);
        const label = `${tasks} tasks @ ${POLL_MS} ms, ${scrolled ? SCROLLED : AT_TOP}${slices === DEFAULT_SLICES ? '' : `, slices=${slices}`}`;
        const frames = `${follow.frames.length} frames in ${follow.seconds.toFixed(1)} s (idle: ${idle.frames.length} in ${idle.seconds.toFixed(1)} s)`;
        figures.push(
          figure(
            PART,
            `frame time p95, ${label}`,
            percentile(follow.frames, 95),
            'ms',
            { name: 'idle page', value: percentile(idle.frames, 95) },
            frames,
          ),
          figure(PART, `frame time p50, ${label}`, percentile(follow.frames, 50), 'ms', {
            name: 'idle page',
            value: percentile(idle.frames, 50),
          }),
          figure(
            PART,
            `longest main-thread task, ${label}`,
            follow.longestTaskMs,
            'ms',
            { name: 'frame budget', value: 1000 / 60 },
            `${follow.longTasks} long tasks overlapping the window (0 ms: none of 50 ms or more); the longest frames: ${
              longFrames
                .slice(0, 3)
                .map(
                  (f) =>
                    `${f.ms.toFixed(0)} ms (${f.scripts[0]?.where ?? `no script, other ${f.otherMs.toFixed(0)} ms`})`,
                )
                .join(', ') || 'none'
            }`,
          ),
          figure(PART, `page JS heap after GC, ${label}`, follow.heapMb, 'MB', {
            name: 'idle page',
            value: idle.heapMb,
          }),
          figure(PART, `DOM nodes, ${label}`, follow.domNodes, 'nodes', {
            name: 'idle page',
            value: idle.domNodes,
          }),
          figure(PART, `tasks/get achieved, ${label}`, pollsPerSecond, 'req/s', {
            name: 'asked',
            value: (tasks * 1000) / POLL_MS,
          }),
          figure(
            PART,
            `tasks/get per CPU second of the main thread, ${label}`,
            pollsPerCpuSecond,
            'req/CPU s',
            undefined,
            `the main thread had ${follow.cpuSeconds.toFixed(1)} s of CPU in the ${follow.seconds.toFixed(1)} s window (CDP ThreadTime): compare variants by this on a loaded machine`,
          ),
          ...(pollCycle
            ? cycleFigures(PART, label, pollCycle, (tasks * 1000) / pollsPerSecond)
            : []),
          figure(PART, `time to start and first-poll, ${label}`, startup, 's'),
          figure(
            PART,
            `style recalc + layout, ${label}`,
            (trace.ms.style + trace.ms.layout) / trace.seconds,
            'ms/s',
            { name: 'a second', value: 1000 },
            `traced after the window: ${trace.frames} frames in ${trace.seconds.toFixed(1)} s, paint ${(trace.ms.paint / trace.seconds).toFixed(0)} ms/s, script ${(trace.ms.script / trace.seconds).toFixed(0)} ms/s`,
          ),
          figure(
            PART,
            `style/layout forced by script, ${label}`,
            trace.forced.count / trace.seconds,
            'per s',
            undefined,
            trace.forced.by.map((f) => `${f.count} by ${f.where}`).join('; ') || 'none',
          ),
        );
      }
    }
    return figures;
  },
};
