/**
 * A Chromium trace of a page over a few seconds (CDP Tracing, the timeline
 * categories DevTools' Performance panel records), saved as a .json trace
 * (opens in that panel) and summarised for the renderer's main thread: the
 * time spent recalculating style, in layout, in paint (pre-paint, paint,
 * layerize) and in script, per second and per frame, and how many of the
 * style and layout passes were forced by script reading layout after a write
 * (a pass nested inside a script event), with the functions that forced the
 * most; and how much of the page each layout pass went through: the objects
 * it laid out (Chromium's dirty objects) per frame, and where it started (the
 * document, or a relayout boundary: a box sized by itself that is neither a
 * flex nor a grid item, laid out alone). A CPU profile shows that work only as
 * "(program)".
 */
import { writeFileSync } from 'node:fs';
import type { CDPSession } from '@playwright/test';
import { whereIs } from './cpu-profile.ts';

/** The part of a Chromium trace event the bench reads. */
export interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  pid: number;
  tid: number;
  /** µs. */
  ts: number;
  dur?: number;
  /** µs of the thread's CPU time: unlike `dur`, not stretched by other processes on a busy machine. */
  tdur?: number;
  args?: {
    name?: string;
    beginData?: {
      /** Layout: the objects this pass lays out, of all in the frame's tree. */
      dirtyObjects?: number;
      totalObjects?: number;
      stackTrace?: {
        functionName?: string;
        url?: string;
        lineNumber?: number;
        columnNumber?: number;
      }[];
    };
    /** Layout: the boxes the pass started from (the document, or relayout boundaries). */
    endData?: { layoutRoots?: { nodeName?: string }[] };
  };
}

type StackFrame = NonNullable<
  NonNullable<NonNullable<TraceEvent['args']>['beginData']>['stackTrace']
>[number];

/** Main-thread time in each kind of rendering work, over the traced window. */
export interface FrameTrace {
  seconds: number;
  /** Frames the main thread began (BeginMainThreadFrame). */
  frames: number;
  ms: { style: number; layout: number; paint: number; script: number };
  /** The same in the main thread's CPU time (what to compare between runs on a loaded machine). */
  cpuMs: { style: number; layout: number; paint: number; script: number };
  /** Style and layout passes forced inside script (read after write), and their ms. */
  forced: { count: number; ms: number; by: { where: string; count: number; top?: StackFrame }[] };
  /** What the layout passes went through. */
  layout: LayoutReach;
}

/** How far the layout passes reached into the page. */
export interface LayoutReach {
  passes: number;
  /** Objects laid out, summed over the passes (each pass's dirty objects). */
  objects: number;
  /** Passes that started from the document (no relayout boundary held what changed). */
  fromDocument: number;
  /** The boxes passes started from most, by element (tag and class), with how many passes each. */
  roots: { root: string; passes: number }[];
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-devtools.timeline.stack',
  'v8.execute',
];
const STYLE = new Set(['UpdateLayoutTree', 'RecalculateStyles']);
const LAYOUT = new Set(['Layout']);
const PAINT = new Set(['PrePaint', 'Paint', 'Layerize', 'UpdateLayer', 'CompositeLayers']);
const SCRIPT = new Set([
  'FunctionCall',
  'EvaluateScript',
  'TimerFire',
  'FireAnimationFrame',
  'EventDispatch',
  'FireIdleCallback',
  'v8.run',
  'V8.Execute',
  'RunMicrotasks',
]);

/**
 * Traces the page behind `cdp` in `categories` while `work` runs, writes the
 * trace to `file` (DevTools' Performance panel opens it), and returns the
 * work's result with the trace's events.
 */
export async function traceWhile<T>(
  cdp: CDPSession,
  file: string,
  categories: readonly string[],
  work: () => Promise<T>,
): Promise<{ result: T; events: TraceEvent[] }> {
  const events: TraceEvent[] = [];
  const onData = ({ value }: { value: object[] }) => events.push(...(value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', onData);
  const complete = new Promise<void>((resolve) =>
    cdp.once('Tracing.tracingComplete', () => resolve()),
  );
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: [...categories], excludedCategories: ['*'] },
  });
  const result = await work();
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', onData);
  writeFileSync(file, JSON.stringify({ traceEvents: events }));
  return { result, events };
}

/** Traces the page behind `cdp` for `seconds`, writes `file`, and summarises the main thread. */
export async function tracePage(
  cdp: CDPSession,
  seconds: number,
  file: string,
): Promise<FrameTrace> {
  const { events } = await traceWhile(
    cdp,
    file,
    CATEGORIES,
    () => new Promise((resolve) => setTimeout(resolve, seconds * 1000)),
  );
  const trace = summariseTrace(events);
  // The build is minified: name each forcing function by its source, through the source maps
  // (a trace's stack frames count lines and columns from 1, a CPU profile's from 0).
  const maps = new Map();
  for (const f of trace.forced.by) {
    if (f.top)
      f.where = await whereIs(
        {
          functionName: f.top.functionName ?? '',
          url: f.top.url ?? '',
          lineNumber: (f.top.lineNumber ?? 1) - 1,
          columnNumber: (f.top.columnNumber ?? 1) - 1,
        },
        maps,
      );
  }
  return trace;
}

/** The summary of one trace's busiest renderer main thread. */
export function summariseTrace(events: readonly TraceEvent[]): FrameTrace {
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (!mains.has(key) || e.ph !== 'X' || e.dur === undefined) continue;
    (byThread.get(key) ?? byThread.set(key, []).get(key)!).push(e);
  }
  const busiest = [...byThread.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  const frames = events.filter(
    (e) => e.name === 'BeginMainThreadFrame' && mains.has(`${e.pid}:${e.tid}`),
  );
  busiest.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const ms = { style: 0, layout: 0, paint: 0, script: 0 };
  const cpuMs = { ...ms };
  const forced = { count: 0, ms: 0 };
  const forcers = new Map<string, { count: number; top?: StackFrame }>();
  // The outermost script event still open, so only top-level script is counted and nesting is known.
  let scriptEnd = -Infinity;
  for (const e of busiest) {
    const dur = e.dur!;
    const inScript = e.ts < scriptEnd;
    if (SCRIPT.has(e.name)) {
      if (!inScript) {
        ms.script += dur / 1000;
        cpuMs.script += (e.tdur ?? 0) / 1000;
        scriptEnd = e.ts + dur;
      }
      continue;
    }
    const kind = STYLE.has(e.name)
      ? 'style'
      : LAYOUT.has(e.name)
        ? 'layout'
        : PAINT.has(e.name)
          ? 'paint'
          : undefined;
    if (!kind) continue;
    ms[kind] += dur / 1000;
    cpuMs[kind] += (e.tdur ?? 0) / 1000;
    if (kind === 'paint' || !inScript) continue;
    forced.count++;
    forced.ms += dur / 1000;
    const top = e.args?.beginData?.stackTrace?.[0];
    const where = top
      ? `${top.functionName || '(anonymous)'} (${top.url?.split('/').pop() ?? ''}:${(top.lineNumber ?? 0) + 1})`
      : '(no stack)';
    const seen =
      forcers.get(where) ?? forcers.set(where, { count: 0, ...(top ? { top } : {}) }).get(where)!;
    seen.count++;
  }
  const span = busiest.length
    ? (Math.max(...busiest.map((e) => e.ts + e.dur!)) - busiest[0]!.ts) / 1e6
    : NaN;
  return {
    seconds: span,
    frames: frames.length,
    ms,
    cpuMs,
    layout: layoutReach(busiest.filter((e) => LAYOUT.has(e.name))),
    forced: {
      ...forced,
      by: [...forcers]
        .sort((a, b) => b[1].count - a[1].count)
        .slice(0, 5)
        .map(([where, seen]) => ({ where, ...seen })),
    },
  };
}

/** Sums the layout passes' objects and names where they started. */
function layoutReach(passes: readonly TraceEvent[]): LayoutReach {
  const roots = new Map<string, number>();
  let objects = 0;
  let fromDocument = 0;
  for (const pass of passes) {
    objects += pass.args?.beginData?.dirtyObjects ?? 0;
    const names = new Set(
      // Svelte's scoping classes say nothing to a reader: dropped.
      (pass.args?.endData?.layoutRoots ?? []).map((root) =>
        (root.nodeName ?? '?').replace(/\s*svelte-\w+/g, '').replace(/='\s+/, "='"),
      ),
    );
    if (names.has('#document')) fromDocument++;
    for (const name of names) roots.set(name, (roots.get(name) ?? 0) + 1);
  }
  return {
    passes: passes.length,
    objects,
    fromDocument,
    roots: [...roots]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([root, count]) => ({ root, passes: count })),
  };
}

/** The summary as printable lines (script time here includes the style and layout it forced). */
export function formatTrace(label: string, trace: FrameTrace): string[] {
  const frames = Math.max(1, trace.frames);
  const per = (kind: keyof FrameTrace['ms']) =>
    `${(trace.ms[kind] / trace.seconds).toFixed(0).padStart(4)} ms/s, ${(trace.ms[kind] / frames).toFixed(2).padStart(6)} ms/frame (CPU ${(trace.cpuMs[kind] / frames).toFixed(2)} ms/frame)`;
  return [
    `${label}: ${trace.frames} main-thread frames in ${trace.seconds.toFixed(1)} s`,
    `  style recalc  ${per('style')}`,
    `  layout        ${per('layout')}`,
    `    ${trace.layout.passes} passes, ${(trace.layout.objects / frames).toFixed(0)} objects laid out per frame (${(trace.layout.objects / Math.max(1, trace.layout.passes)).toFixed(0)} per pass), ${trace.layout.fromDocument} passes from the document`,
    ...trace.layout.roots.map((r) => `    ${String(r.passes).padStart(5)}  from ${r.root}`),
    `  paint         ${per('paint')}`,
    `  script        ${per('script')}`,
    `  forced style/layout inside script: ${trace.forced.count} (${trace.forced.ms.toFixed(0)} ms)${trace.forced.by.length ? ', by:' : ''}`,
    ...trace.forced.by.map((f) => `    ${String(f.count).padStart(5)}  ${f.where}`),
  ];
}
