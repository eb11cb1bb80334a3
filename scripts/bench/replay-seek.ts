/**
 * The replay of a huge run in Chromium, against the production build: the
 * time to open the file (picker to the replay's slider, through reading,
 * checking in a worker and indexing) and its longest main-thread task, then
 * jumps of the slider (each one `input` event, as a click on the track makes)
 * and a drag (many `input` events per frame, as a pointer dragging the thumb
 * makes). For each jump: how long until the view stops changing (the last
 * DOM change the jump caused; cards mounted over later frames count), and
 * the longest main-thread task while it settles, read from a Chromium trace
 * (`RunTask` on the renderer's main thread, so tasks under 50 ms are seen
 * too). References from the same run: the open's longest task, and the
 * frame of the replay left idle.
 */
import type { CDPSession, Page } from '@playwright/test';
import type { BenchContext } from './context.ts';
import { formatProfile, startProfile } from './cpu-profile.ts';
import { percentile } from './figures.ts';
import { traceWhile, type TraceEvent } from './frame-trace.ts';

/** What one measured seek session gives. */
export interface SeekFigures {
  openMs: number;
  openLongestTaskMs: number;
  idleFrameMs: number;
  /** Per jump: ms from the input to the view's last change. */
  jumpSettleMs: number[];
  /** Per jump: the longest main-thread task while it settled. */
  jumpLongestTaskMs: number[];
  /** The drag: the longest task and the frame p95 while it ran. */
  dragLongestTaskMs: number;
  dragFrameP95Ms: number;
}

/** Jumps across the run, in an order that skips far both ways (fractions of the duration). */
const JUMPS = [0.5, 0.1, 0.9, 0.3, 0.7, 0.05, 0.95, 0.4, 0.6, 0.2, 0.8, 1, 0, 0.55, 0.45];

/**
 * The bench's helpers in the page (a string: tsx's helpers, such as the one
 * naming functions, do not exist in the page).
 */
const IN_PAGE = `
  window.__seekBench = {
    slider: () => document.querySelector('section[aria-label="Replay"] input[type="range"]'),
    frames(n) {
      return new Promise((resolve) => {
        const step = () => (n-- <= 0 ? resolve(undefined) : requestAnimationFrame(step));
        requestAnimationFrame(step);
      });
    },
    // Resolves once the page changed nothing for 'quiet' frames: ms from 'since' to the last change.
    settled(since, quiet) {
      return new Promise((resolve) => {
        let last = since;
        const observer = new MutationObserver(() => (last = performance.now()));
        observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
        let still = 0;
        let seen = last;
        const frame = () => {
          if (last === seen) still++;
          else (still = 0), (seen = last);
          if (still >= quiet) {
            observer.disconnect();
            resolve(last - since);
          } else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      });
    },
    seek(t) {
      const slider = this.slider();
      slider.value = String(t);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    },
    // The median frame of the page left alone.
    async idleFrame(count) {
      const deltas = [];
      let last = performance.now();
      await new Promise((resolve) => {
        const frame = (now) => {
          deltas.push(now - last);
          last = now;
          if (deltas.length >= count) resolve(undefined);
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      });
      deltas.sort((a, b) => a - b);
      return deltas[Math.floor(deltas.length / 2)];
    },
    async jump(name, t) {
      performance.mark(name + '-start');
      const since = performance.now();
      this.seek(t);
      const settled = await this.settled(since, 8);
      performance.mark(name + '-end');
      return settled;
    },
    // A drag from 'from' to 'to': an input every 4 ms (a pointer reports faster than frames); the frame deltas meanwhile.
    async drag(from, to, moves) {
      performance.mark('drag-start');
      const deltas = [];
      let last = performance.now();
      let dragging = true;
      const frame = (now) => {
        deltas.push(now - last);
        last = now;
        if (dragging) requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
      for (let i = 0; i <= moves; i++) {
        this.seek(Math.round(from + ((to - from) * i) / moves));
        await new Promise((resolve) => setTimeout(resolve, 4));
      }
      await this.settled(performance.now(), 8);
      dragging = false;
      performance.mark('drag-end');
      return deltas;
    },
  };
`;

/** A main-thread task in the trace (its name differs between Chromium versions). */
const RUN_TASK = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

/** The main thread's tasks (ms) that overlap each [start, end] mark pair, by name prefix. */
function longestTasksBetween(events: readonly TraceEvent[], marks: readonly string[]): number[] {
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = events.filter(
    (e) => RUN_TASK.has(e.name) && e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`),
  );
  const markAt = (name: string): number | undefined =>
    events.find((e) => e.name === name && (e.cat ?? '').includes('user_timing'))?.ts;
  return marks.map((mark) => {
    const start = markAt(`${mark}-start`);
    const end = markAt(`${mark}-end`);
    if (start === undefined || end === undefined) throw new Error(`no trace marks for ${mark}`);
    let longest = 0;
    for (const task of tasks)
      if (task.ts + task.dur! >= start && task.ts <= end)
        longest = Math.max(longest, task.dur! / 1000);
    return longest;
  });
}

/** The seek's trace: top-level tasks, the page's marks and the timeline's events. */
function traced<T>(
  cdp: CDPSession,
  file: string,
  work: () => Promise<T>,
): Promise<{ result: T; events: TraceEvent[] }> {
  return traceWhile(cdp, file, ['toplevel', 'blink.user_timing', 'devtools.timeline'], work);
}

function mark(page: Page, name: string): Promise<void> {
  return page.evaluate((n) => void performance.mark(n), name);
}

/** Opens `runPath` in the app's replay and measures the open, the jumps and a drag. */
export async function measureSeek(
  ctx: BenchContext,
  runPath: string,
  label: string,
): Promise<SeekFigures> {
  const context = await (
    await ctx.browser()
  ).newContext({ viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(IN_PAGE);
    await page.goto(`${ctx.appUrl}/?seed=1`);
    await page.getByRole('status').filter({ hasText: 'Connected as learner' }).waitFor();
    const cdp = await context.newCDPSession(page);

    const bar = page.getByRole('region', { name: 'Replay' });
    const { result: openMs, events: openEvents } = await traced(
      cdp,
      `${ctx.outDir}/replay-open-${label}.trace.json`,
      async () => {
        await mark(page, 'open-start');
        const started = Date.now();
        await page.getByLabel('Open a run file to replay').setInputFiles(runPath);
        await bar.getByRole('slider', { name: 'Time in the run' }).waitFor({ timeout: 120_000 });
        await page.evaluate(() => (window as never as SeekWindow).__seekBench.frames(2));
        const ms = Date.now() - started;
        await mark(page, 'open-end');
        return ms;
      },
    );
    const [openLongestTaskMs] = longestTasksBetween(openEvents, ['open']);
    // Let the first drawing finish before anything is timed.
    await page.evaluate(() => (window as never as SeekWindow).__seekBench.settled(0, 10));

    const idleFrameMs = await page.evaluate(() =>
      (window as never as SeekWindow).__seekBench.idleFrame(60),
    );

    const duration = Number(
      await bar.getByRole('slider', { name: 'Time in the run' }).getAttribute('max'),
    );
    const jumps = ctx.small ? JUMPS.slice(0, 5) : JUMPS;
    const { result: jumpSettleMs, events: seekEvents } = await traced(
      cdp,
      `${ctx.outDir}/replay-seek-${label}.trace.json`,
      async () => {
        const settle: number[] = [];
        for (const [i, fraction] of jumps.entries())
          settle.push(
            await page.evaluate(
              ([name, t]) => (window as never as SeekWindow).__seekBench.jump(name, t),
              [`jump${i}`, Math.round(fraction * duration)] as const,
            ),
          );
        const frames = await page.evaluate(
          ([from, to]) => (window as never as SeekWindow).__seekBench.drag(from, to, 60),
          [Math.round(duration * 0.3), Math.round(duration * 0.65)] as const,
        );
        return { settle, frames };
      },
    );
    // Apart from the timed jumps (sampling slows the page): a CPU profile of jumps, to say where a seek's time goes.
    const stop = await startProfile((method, params) => cdp.send(method as never, params as never));
    for (const [i, fraction] of jumps.slice(0, 6).entries())
      await page.evaluate(
        ([name, t]) => (window as never as SeekWindow).__seekBench.jump(name, t),
        [`profiled${i}`, Math.round(((fraction + 0.33) % 1) * duration)] as const,
      );
    const profile = await stop(`${ctx.outDir}/replay-seek-${label}.cpuprofile`);
    for (const line of formatProfile(`replay seek (${label}), 6 jumps`, profile)) ctx.log(line);

    const [dragLongestTaskMs, ...jumpLongestTaskMs] = longestTasksBetween(seekEvents, [
      'drag',
      ...jumps.map((_, i) => `jump${i}`),
    ]);
    return {
      openMs,
      openLongestTaskMs: openLongestTaskMs!,
      idleFrameMs,
      jumpSettleMs: jumpSettleMs.settle,
      jumpLongestTaskMs,
      dragLongestTaskMs: dragLongestTaskMs!,
      dragFrameP95Ms: percentile(jumpSettleMs.frames, 95),
    };
  } finally {
    await context.close();
  }
}

/** What {@link IN_PAGE} puts on the page's window. */
interface SeekWindow {
  __seekBench: {
    frames(n: number): Promise<void>;
    settled(since: number, quiet: number): Promise<number>;
    idleFrame(count: number): Promise<number>;
    jump(name: string, t: number): Promise<number>;
    drag(from: number, to: number, moves: number): Promise<number[]>;
  };
}
