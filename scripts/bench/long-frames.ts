/**
 * What a long main-thread task was, from Chromium's Long Animation Frames
 * (PerformanceObserver `long-animation-frame`, Chromium 123 and later). A
 * 'longtask' entry says only that a task ran long; a long animation frame
 * says what ran in it: each script over 5 ms (what invoked it, a timer, a
 * port's message, a promise, an IndexedDB event, and where its function
 * is), the style and layout it forced, and how long the frame's own
 * rendering (requestAnimationFrame callbacks, style, layout) took. What is
 * neither script nor rendering is the browser's own work in the task
 * (a garbage collection, deserialising a message). The CPU profile and the
 * trace are taken after the measured window and miss a rare long task;
 * these entries are kept all through it.
 *
 * Pure: the caller gives each script's text and source map
 * ({@link locatorFor}); the page-follow part fetches them from the build.
 */
import type { TraceMap } from '@jridgewell/trace-mapping';
import { describeFrame, type CallFrame, type FrameSource } from './profile-attribution.ts';

/** One script of a long animation frame, as the page's observer copies it (PerformanceScriptTiming). */
export interface LongFrameScript {
  invoker: string;
  invokerType: string;
  sourceURL: string;
  sourceFunctionName: string;
  /** Character offset of the function in its script; -1 when unknown. */
  sourceCharPosition: number;
  startTime: number;
  duration: number;
  forcedStyleAndLayoutDuration: number;
}

/** One long animation frame, as the page's observer copies it (PerformanceLongAnimationFrameTiming). */
export interface LongFrameEntry {
  startTime: number;
  duration: number;
  /** The frame's time past 50 ms in its longest tasks, plus its rendering: what a user waits for. */
  blockingDuration: number;
  /** When the frame's rendering began (0: the frame drew nothing). */
  renderStart: number;
  /** When its style and layout began (0: none). */
  styleAndLayoutStart: number;
  scripts: LongFrameScript[];
}

/** A script of a long frame, with where its function is in the sources. */
export interface LongFrameScriptSummary {
  invoker: string;
  invokerType: string;
  /** `name (src/file.ts:line)`, or the script's own name and offset when it has no source map. */
  where: string;
  ms: number;
  forcedStyleAndLayoutMs: number;
}

export interface LongFrameSummary {
  /** From the start of the measured window. */
  atMs: number;
  ms: number;
  blockingMs: number;
  /** Sum of the scripts' durations (each over 5 ms; smaller ones are not reported). */
  scriptMs: number;
  forcedStyleAndLayoutMs: number;
  /** From the frame's rendering start to its end (requestAnimationFrame callbacks, style, layout, paint). */
  renderMs: number;
  /** From style and layout's start to the frame's end. */
  styleAndLayoutMs: number;
  /** Neither a reported script nor rendering: the browser's own work (a GC, a message's deserialisation) or scripts under 5 ms. */
  otherMs: number;
  /** Longest first. */
  scripts: LongFrameScriptSummary[];
}

/** Where a script's function is, from its URL, offset and (minified) name. */
export type ScriptLocator = (
  url: string,
  charPosition: number,
  functionName: string,
) => FrameSource;

/** The 0-based line and column of character `offset` in `text`. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart };
}

/**
 * A locator over the scripts' texts and source maps: an offset becomes a
 * line and column in its script, then a position in the sources through
 * `sourceFor` (the CPU profile's mapping, `cpu-profile.ts`).
 */
export function locatorFor(
  scripts: ReadonlyMap<string, { text: string; map: TraceMap | undefined }>,
  sourceFor: (frame: CallFrame, map: TraceMap | undefined) => FrameSource,
): ScriptLocator {
  return (url, charPosition, functionName) => {
    const script = scripts.get(url);
    const name = functionName || '(anonymous)';
    if (!script || charPosition < 0)
      return { file: url.split('/').pop() ?? '', line: undefined, name };
    const { line, column } = positionAt(script.text, charPosition);
    return sourceFor({ functionName, url, lineNumber: line, columnNumber: column }, script.map);
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** One frame's summary; times relative to `windowStart`. */
export function summariseLongFrame(
  entry: LongFrameEntry,
  locate: ScriptLocator,
  windowStart = 0,
): LongFrameSummary {
  const end = entry.startTime + entry.duration;
  const scripts = [...entry.scripts]
    .sort((a, b) => b.duration - a.duration)
    .map((script) => ({
      invoker: script.invoker,
      invokerType: script.invokerType,
      where: describeFrame(
        locate(script.sourceURL, script.sourceCharPosition, script.sourceFunctionName),
      ),
      ms: round(script.duration),
      forcedStyleAndLayoutMs: round(script.forcedStyleAndLayoutDuration),
    }));
  const scriptMs = entry.scripts.reduce((sum, s) => sum + s.duration, 0);
  const renderMs = entry.renderStart > 0 ? end - entry.renderStart : 0;
  return {
    atMs: round(entry.startTime - windowStart),
    ms: round(entry.duration),
    blockingMs: round(entry.blockingDuration),
    scriptMs: round(scriptMs),
    forcedStyleAndLayoutMs: round(
      entry.scripts.reduce((sum, s) => sum + s.forcedStyleAndLayoutDuration, 0),
    ),
    renderMs: round(renderMs),
    styleAndLayoutMs: round(entry.styleAndLayoutStart > 0 ? end - entry.styleAndLayoutStart : 0),
    // Scripts in rendering (requestAnimationFrame callbacks) are in both: counted once.
    otherMs: round(Math.max(0, entry.duration - renderMs - scriptsBefore(entry, scriptMs))),
    scripts,
  };
}

/** The scripts' time before the frame's rendering began (all of it when it drew nothing). */
function scriptsBefore(entry: LongFrameEntry, scriptMs: number): number {
  if (entry.renderStart <= 0) return scriptMs;
  return entry.scripts
    .filter((s) => s.startTime < entry.renderStart)
    .reduce((sum, s) => sum + Math.min(s.duration, entry.renderStart - s.startTime), 0);
}

/** The `top` longest frames overlapping [windowStart, windowEnd], longest first. */
export function longestFrames(
  entries: readonly LongFrameEntry[],
  locate: ScriptLocator,
  windowStart: number,
  windowEnd: number,
  top = 5,
): LongFrameSummary[] {
  return entries
    .filter((e) => e.startTime + e.duration >= windowStart && e.startTime <= windowEnd)
    .sort((a, b) => b.duration - a.duration)
    .slice(0, top)
    .map((entry) => summariseLongFrame(entry, locate, windowStart));
}

/** The summaries as printable lines. */
export function formatLongFrames(label: string, frames: readonly LongFrameSummary[]): string[] {
  if (frames.length === 0) return [`${label}: no frame of 50 ms or more`];
  return [
    `${label}: the ${frames.length} longest (ms; at = from the window's start):`,
    ...frames.flatMap((f) => [
      `  ${f.ms.toFixed(0).padStart(4)} ms at ${(f.atMs / 1000).toFixed(2)} s: blocking ${f.blockingMs.toFixed(0)}, scripts ${f.scriptMs.toFixed(0)} (forced style/layout ${f.forcedStyleAndLayoutMs.toFixed(0)}), render ${f.renderMs.toFixed(0)} (style/layout ${f.styleAndLayoutMs.toFixed(0)}), other ${f.otherMs.toFixed(0)}`,
      ...f.scripts
        .slice(0, 4)
        .map(
          (s) =>
            `      ${s.ms.toFixed(0).padStart(4)} ms  ${s.invokerType} ${s.invoker} -> ${s.where}${s.forcedStyleAndLayoutMs > 0 ? ` (forced ${s.forcedStyleAndLayoutMs.toFixed(0)})` : ''}`,
        ),
    ]),
  ];
}
