/**
 * When long work on the page's main thread should stop and let a frame be
 * drawn. A thousand tasks answered in one batch, or a thousand polls falling
 * due in one wall timer, are hundreds of milliseconds of work; done in one
 * task, the page cannot draw through them. Cutting them every few
 * milliseconds is no answer either: each cut lets the browser draw a frame,
 * and a frame (the Svelte flush, style, layout, paint) costs as much as
 * dozens of polls, so drawing one every few ms halves what the page gets
 * done (measured: 1,587 -> 887 tasks/get a second).
 *
 * So a slice ends in one of two ways. Once it has run for a minimum and the
 * last frame drawn (seen through requestAnimationFrame's timestamps) is a
 * frame gap old, the rest goes on in an ordinary later task (a
 * MessageChannel message), and the browser draws the frame that is due
 * first. Otherwise, at a maximum slice (under a 50 ms long task), the rest
 * goes on in a task the browser runs ahead of drawing
 * (`scheduler.postTask` at `user-blocking`, which Chromium runs before a
 * frame unless rendering has waited about 100 ms): the task is cut, but no
 * extra frame is paid for. Measured in headless Chromium, 40 ms slices
 * back to back: a frame after 55 of 56 cuts through a MessageChannel, after
 * 21 of 64 at `user-blocking`. Callers keep their order and run everything
 * once, whichever way a slice ends.
 *
 * A slice's own time is not its task's: what its callbacks hand to
 * microtasks (each poll's answer is handled in a promise continuation) runs
 * after the cut, in the same task. So the maximum is for the task as a
 * whole: each slice gone on ahead of drawing measures the tail the one
 * before left (from the cut to its own start), and the next slice's own
 * time is cut to its share of the maximum.
 *
 * The server worker and Node draw no frames: they get {@link wholeTasks}, as
 * the page does unless its address asks for slices (`?slices=on`), or for
 * chunks of so many items each (`?slices=chunks,N`, work-chunks.ts).
 */
import { workChunks } from './work-chunks.ts';

/** Where work is cut into tasks; injectable so tests slice on a simulated clock. */
export interface Slices {
  /** Milliseconds on a clock fine enough to time a slice (the page: `performance.now`). */
  now(): number;
  /**
   * Whether work that began at `startedAt` (on {@link now}'s clock) and has
   * done `done` items in this task (timers fired, messages handed on) should
   * stop now and go on in a later task.
   */
  shouldYield(startedAt: number, done: number): boolean;
  /** Runs `callback` in a later task of the event loop (after a frame, if one is due). */
  later(callback: () => void): void;
}

/** Never cuts: work runs to its end in the task it started in (workers, Node, and the page by default). */
export const wholeTasks: Slices = {
  now: () => 0,
  shouldYield: () => false,
  later: (callback) => queueMicrotask(callback),
};

/** When a slice may end, in ms. */
export interface SlicePolicy {
  /** Work runs at least this long before a frame may cut it, so each task gets something done. */
  minSliceMs: number;
  /** A frame is let through once the last one began this long ago. */
  frameGapMs: number;
  /** A slice's task (its own time and the microtasks it leaves) is kept to this length even when no frame is let through (a task under 50 ms is no long task). */
  maxSliceMs: number;
}

/**
 * The default. A frame costs the page as much as dozens of polls (the
 * Svelte flush, style, layout, paint: tens of ms with a thousand tasks), so
 * one is let through at most every 100 ms of work; slices are cut at 40 ms
 * all the same, below the 50 ms of a long task, and go on ahead of drawing.
 */
export const FRAME_SLICES: SlicePolicy = { minSliceMs: 8, frameGapMs: 100, maxSliceMs: 40 };

/** What {@link frameSlices} needs from the browser (tests pass simulated ones). */
export interface FrameEnv {
  now(): number;
  /** requestAnimationFrame: the callback gets the frame's start time on {@link now}'s clock. */
  requestFrame(callback: (at: number) => void): void;
  /** Runs `callback` in an ordinary later task: a frame that is due is drawn first. */
  post(callback: () => void): void;
  /** Runs `callback` in a later task the browser runs ahead of drawing a frame (else as {@link post}). */
  postAhead?(callback: () => void): void;
}

/** Slices cut when a frame is due, as {@link SlicePolicy} says. */
export function frameSlices(env: FrameEnv, policy: SlicePolicy = FRAME_SLICES): Slices {
  let lastFrame = env.now();
  let watching = false;
  const watch = () => {
    if (watching) return;
    watching = true;
    env.requestFrame((at) => {
      watching = false;
      lastFrame = at;
    });
  };
  // The frame (by its predecessor's timestamp) a cut was last made for: while the browser has not
  // drawn it yet, cutting again for it only costs another task switch and flush, so no more cuts
  // are made for it (measured: cut every 8 ms at load 18, tasks/get fell to a quarter).
  let cutFor: number | undefined;
  const frameDue = (now: number) => cutFor !== lastFrame && now - lastFrame >= policy.frameGapMs;
  const postAhead = env.postAhead ?? env.post;
  // What a slice's callbacks hand to microtasks (a poll's answer is handled in a promise
  // continuation) runs after the cut, in the same task, where shouldYield cannot see it: measured
  // in the bench, three times the slice's own time, so 40 ms slices were 150-200 ms tasks. The
  // time from a cut to the next slice's start (gone on ahead of drawing, so nothing else ran
  // between) is that tail: the slice's own share of its task sets how long the next may run.
  let ownShare = 1;
  let cut: { startedAt: number; at: number } | undefined;
  const learn = (slice: { startedAt: number; at: number }, resumedAt: number) => {
    const own = slice.at - slice.startedAt;
    const share = own / Math.max(own, resumedAt - slice.startedAt);
    // Halfway to each new measure: a few slices follow a change in the work, one odd one does not rule.
    ownShare = (ownShare + share) / 2;
  };
  return {
    now: env.now,
    shouldYield(startedAt) {
      const now = env.now();
      cut = undefined;
      if (now - startedAt < policy.minSliceMs) return false;
      // Only work that runs long needs to know when frames are drawn: watch them from now on.
      watch();
      const maxOwnMs = Math.max(policy.minSliceMs, policy.maxSliceMs * ownShare);
      if (now - startedAt < maxOwnMs && !frameDue(now)) return false;
      cut = { startedAt, at: now };
      return true;
    },
    // Asked right after a cut: a frame due is let through, else the work goes on ahead of one.
    later(callback) {
      const slice = cut;
      cut = undefined;
      if (frameDue(env.now())) {
        cutFor = lastFrame;
        return env.post(callback);
      }
      postAhead(() => {
        if (slice) learn(slice, env.now());
        callback();
      });
    },
  };
}

/** The part of the Prioritized Task Scheduling API used here (Chromium has it; Node and some browsers do not). */
interface TaskScheduler {
  postTask(callback: () => void, options: { priority: 'user-blocking' }): Promise<unknown>;
}

function isTaskScheduler(value: unknown): value is TaskScheduler {
  return (
    typeof value === 'object' &&
    value !== null &&
    'postTask' in value &&
    typeof value.postTask === 'function'
  );
}

/** A task ahead of drawing (`scheduler.postTask`, user-blocking), where the browser has it. */
function taskAhead(): ((callback: () => void) => void) | undefined {
  const scheduler: unknown = 'scheduler' in globalThis ? globalThis.scheduler : undefined;
  if (!isTaskScheduler(scheduler)) return undefined;
  return (callback) => void scheduler.postTask(callback, { priority: 'user-blocking' });
}

/** Later tasks through one MessageChannel, in the order asked (what `setTimeout(0)` would be, without its 4 ms clamp). */
export function channelPost(): (callback: () => void) => void {
  let channel: MessageChannel | undefined;
  let waiting: (() => void)[] = [];
  return (callback) => {
    if (!channel) {
      channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const run = waiting;
        waiting = [];
        for (const next of run) next();
      };
    }
    waiting.push(callback);
    if (waiting.length === 1) channel.port2.postMessage(undefined);
  };
}

/**
 * How the page's address sets the slices: `slices=on` cuts as
 * {@link FRAME_SLICES} says, `slices=MIN,GAP,MAX` (ms) tries another policy
 * (the bench runs them beside whole tasks); anything else runs every task
 * whole. Whole is the page's default until a side-by-side run shows a
 * slicing that keeps the page's throughput (README, Benchmarks).
 */
export function slicePolicyFromAddress(search: string): SlicePolicy | 'off' {
  const value = new URLSearchParams(search).get('slices');
  if (value === 'on') return FRAME_SLICES;
  const numbers = value?.split(',').map(Number) ?? [];
  const [minSliceMs, frameGapMs, maxSliceMs] = numbers;
  if (
    numbers.length === 3 &&
    minSliceMs !== undefined &&
    frameGapMs !== undefined &&
    maxSliceMs !== undefined &&
    numbers.every((n) => Number.isFinite(n) && n >= 0)
  )
    return { minSliceMs, frameGapMs, maxSliceMs };
  return 'off';
}

/**
 * `slices=chunks,N` (N a whole number of at least 1): the page's rounds of
 * due timers and batches of answers are cut every N items (work-chunks.ts);
 * undefined for any other address.
 */
export function chunkSizeFromAddress(search: string): number | undefined {
  const match = /^chunks,([1-9][0-9]*)$/.exec(new URLSearchParams(search).get('slices') ?? '');
  return match ? Number(match[1]) : undefined;
}

let pageSlicesMade: Slices | undefined;

/**
 * The page's main-thread slices, one for the whole page (the world clock and
 * every worker port share its view of the frames); {@link wholeTasks} where
 * no frame is drawn (a worker, Node).
 */
export function pageSlices(): Slices {
  if (pageSlicesMade) return pageSlicesMade;
  if (typeof requestAnimationFrame !== 'function' || typeof location === 'undefined')
    return (pageSlicesMade = wholeTasks);
  const chunk = chunkSizeFromAddress(location.search);
  if (chunk !== undefined)
    return (pageSlicesMade = workChunks(chunk, taskAhead() ?? channelPost()));
  const policy = slicePolicyFromAddress(location.search);
  pageSlicesMade =
    policy === 'off'
      ? wholeTasks
      : frameSlices(
          {
            now: () => performance.now(),
            requestFrame: (callback) => requestAnimationFrame(callback),
            post: channelPost(),
            postAhead: taskAhead(),
          },
          policy,
        );
  return pageSlicesMade;
}
