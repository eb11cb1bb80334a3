/**
 * A Chromium CPU profile of a page over a few seconds (CDP Profiler), saved
 * as a .cpuprofile (opens in Chromium DevTools' Performance panel) and
 * summarised (`profile-attribution.ts`): the functions with the most self
 * time, inclusive time per source file or package, the page's named entry
 * points (`page-entry-points.ts`) and what the browser ran at the top of
 * each stack. The summary is printed and saved beside the profile
 * (`<name>.summary.json`). The production build is minified, so each
 * function's position is mapped back to its source through the build's
 * source maps (fetched beside each script).
 */
import { writeFileSync } from 'node:fs';
import {
  LEAST_UPPER_BOUND,
  originalPositionFor,
  sourceContentFor,
  TraceMap,
  type SourceMapInput,
} from '@jridgewell/trace-mapping';
import type { CDPSession, Page } from '@playwright/test';
import { PAGE_TABLES, type ProfileTables } from './page-entry-points.ts';
import {
  attribute,
  describeFrame,
  type Attribution,
  type CallFrame,
  type FrameSource,
  type Profile,
} from './profile-attribution.ts';

/** Sampling every 250 µs: fine enough for sub-millisecond handlers, light enough not to swamp the page. */
const SAMPLING_US = 250;

/** Sends one CDP command to a target (the page's own session, or a worker through the browser's: `worker-profile.ts`). */
export type CdpSend = (method: string, params?: Record<string, unknown>) => Promise<unknown>;

/** Source maps by script URL, fetched once each (undefined: the script has none). */
type SourceMaps = Map<string, TraceMap | undefined>;

/** A profile's summary, and the inside of one entry point (the Svelte flush's, for a page) by file. */
export interface ProfileSummary extends Attribution {
  within?: { label: string; byFile: Attribution['byFile']; self: Attribution['self'] };
}

/**
 * Starts sampling on a target; the returned `stop` ends it, writes `file`
 * and its summary, and returns the summary. The tables are the page's
 * unless given (a worker runs none of its entry points: `{ entryPoints: [] }`).
 */
export async function startProfile(
  send: CdpSend,
  tables: ProfileTables = PAGE_TABLES,
): Promise<(file: string, top?: number) => Promise<ProfileSummary>> {
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  await send('Profiler.start');
  return async (file, top = 15) => {
    const { profile } = (await send('Profiler.stop')) as { profile: Profile };
    await send('Profiler.disable');
    writeFileSync(file, JSON.stringify(profile));
    const summary = await summarise(profile, tables, top);
    writeFileSync(file.replace(/\.cpuprofile$/, '') + '.summary.json', JSON.stringify(summary));
    return summary;
  };
}

/** Profiles `page` for `seconds`, writes `file` and its summary, and returns the summary. */
export async function profilePage(
  page: Page,
  cdp: CDPSession,
  seconds: number,
  file: string,
  top = 15,
): Promise<ProfileSummary> {
  const stop = await startProfile((method, params) => cdp.send(method as never, params as never));
  await page.waitForTimeout(seconds * 1000);
  return stop(file, top);
}

/**
 * The summary of a profile whose scripts' source maps `loadMap` finds
 * (by default fetched beside each script, so while the build is served).
 */
export async function summarise(
  profile: Profile,
  { entryPoints, within }: ProfileTables,
  top = 15,
  loadMap: (url: string) => Promise<TraceMap | undefined> = fetchMap,
): Promise<ProfileSummary> {
  const sourceOf = await sourcesOf(profile, loadMap);
  const summary = attribute(profile, sourceOf, entryPoints, top);
  if (!within) return summary;
  const inside = attribute(profile, sourceOf, [], 10, within);
  return { ...summary, within: { label: within.label, byFile: inside.byFile, self: inside.self } };
}

/** Each frame of `profile` to its source, every script's source map loaded first (by default fetched beside it). */
export async function sourcesOf(
  profile: Profile,
  loadMap: (url: string) => Promise<TraceMap | undefined> = fetchMap,
): Promise<(frame: CallFrame) => FrameSource> {
  const maps: SourceMaps = new Map();
  for (const { callFrame } of profile.nodes)
    if (!maps.has(callFrame.url)) maps.set(callFrame.url, await loadMap(callFrame.url));
  // Many nodes are the same function, called from different places: each is mapped once.
  const sources = new Map<string, FrameSource>();
  return (frame) => {
    const key = `${frame.url}:${frame.lineNumber}:${frame.columnNumber}:${frame.functionName}`;
    let source = sources.get(key);
    if (!source) sources.set(key, (source = sourceFor(frame, maps.get(frame.url))));
    return source;
  };
}

/** `name (source:line)` of a position in one of the page's scripts, through its source map when it has one. */
export async function whereIs(frame: CallFrame, maps: SourceMaps = new Map()): Promise<string> {
  if (!maps.has(frame.url)) maps.set(frame.url, await fetchMap(frame.url));
  return describeFrame(sourceFor(frame, maps.get(frame.url)));
}

export async function fetchMap(url: string): Promise<TraceMap | undefined> {
  if (!/^https?:\/\/.*\.js$/.test(url)) return undefined;
  try {
    const response = await fetch(`${url}.map`);
    return response.ok ? new TraceMap((await response.json()) as SourceMapInput) : undefined;
  } catch {
    return undefined;
  }
}

/** An identifier followed by `(`: a named function's or method's name where its position points. */
const NAME_AT = /^[#\w$]+(?=\s*[(<])/;

/**
 * Where a frame's function is in the sources. The build's names are
 * minified, so a named function without a name in the map is named from
 * the source text at its position (a method's position is its name; an
 * anonymous function keeps none, so a call it is passed to is not taken
 * for its name).
 */
export function sourceFor(frame: CallFrame, map: TraceMap | undefined): FrameSource {
  const minified = frame.functionName || '(anonymous)';
  const script = frame.url.split('/').pop() ?? '';
  // A position of -1 (a script's top level compiling, seen across a reload) has no line to map.
  if (!map || frame.lineNumber < 0)
    return {
      file: script,
      line: frame.url && frame.lineNumber >= 0 ? frame.lineNumber + 1 : undefined,
      name: minified,
    };
  const at = { line: frame.lineNumber + 1, column: frame.columnNumber };
  // A compiled Svelte template's effect often starts where no mapping does: the next mapping
  // on its line is in the same component (its line, the template's nearest).
  let original = originalPositionFor(map, at);
  if (!original.source) original = originalPositionFor(map, { ...at, bias: LEAST_UPPER_BOUND });
  if (!original.source) return { file: script, line: undefined, name: minified };
  const text = frame.functionName
    ? sourceContentFor(map, original.source)?.split('\n')[original.line - 1]?.slice(original.column)
    : undefined;
  return {
    // Vite writes sources relative to the script (`../../src/…`): from the repository's root.
    file: original.source.replace(/^(\.\.\/)+/, ''),
    line: original.line,
    name: original.name ?? NAME_AT.exec(text ?? '')?.[0] ?? minified,
  };
}

const pct = (percent: number) => `${percent.toFixed(1).padStart(5)}%`;
const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;

/** The summary as printable lines. */
export function formatProfile(label: string, summary: ProfileSummary, thread = 'main thread') {
  return [
    `${label}: ${thread} busy ${summary.busyPercent.toFixed(0)}% of the profiled time (${summary.busyMs.toFixed(0)} ms); top self time:`,
    ...summary.self.map((f) => `  ${pct(f.percent)}  ${ms(f.ms)}  ${f.what}`),
    `  inclusive time by source file or package (a sample counted once per file on its stack; self in brackets):`,
    ...summary.byFile.map(
      (f) => `  ${pct(f.percent)}  ${ms(f.ms)}  (self ${pct(f.selfPercent)})  ${f.what}`,
    ),
    ...(summary.entries.length === 0
      ? []
      : [
          `  inclusive time of entry points:`,
          ...summary.entries.map((f) => `  ${pct(f.percent)}  ${ms(f.ms)}  ${f.what}`),
        ]),
    `  inclusive time by outermost frame (what an event, a timer, a frame or a microtask ran):`,
    ...summary.outermost.map((f) => `  ${pct(f.percent)}  ${ms(f.ms)}  ${f.what}`),
    ...(summary.within
      ? [
          `  inside ${summary.within.label}, by source file or package (of all busy time):`,
          ...summary.within.byFile.map(
            (f) => `  ${pct(f.percent)}  ${ms(f.ms)}  (self ${pct(f.selfPercent)})  ${f.what}`,
          ),
          `  inside it, top self time:`,
          ...summary.within.self.map((f) => `  ${pct(f.percent)}  ${ms(f.ms)}  ${f.what}`),
        ]
      : []),
  ];
}
