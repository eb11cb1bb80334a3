/**
 * A Chromium CPU profile of a page over a few seconds (CDP Profiler), saved
 * as a .cpuprofile (opens in Chromium DevTools' Performance panel) and
 * summarised as the functions with the most self time. The production build
 * is minified, so each function's position is mapped back to its source
 * through the build's source maps (fetched beside each script).
 */
import { writeFileSync } from 'node:fs';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import type { CDPSession, Page } from '@playwright/test';

/** The part of Chromium's CDP `Profiler.Profile` the summary reads. */
interface Profile {
  nodes: {
    id: number;
    callFrame: {
      functionName: string;
      url: string;
      lineNumber: number;
      columnNumber: number;
    };
  }[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

/** One function's share of the sampled time. */
export interface SelfTime {
  /** `name (source:line)`, mapped through the source map where there is one. */
  where: string;
  ms: number;
  /** Of all sampled time that was not idle. */
  percent: number;
}

/** Sampling every 250 µs: fine enough for sub-millisecond handlers, light enough not to swamp the page. */
const SAMPLING_US = 250;
const SYNTHETIC = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** Sends one CDP command to a target (the page's own session, or a worker through the browser's: `worker-profile.ts`). */
export type CdpSend = (method: string, params?: Record<string, unknown>) => Promise<unknown>;

/** Starts sampling on a target; the returned `stop` ends it, writes `file` and summarises it. */
export async function startProfile(
  send: CdpSend,
): Promise<(file: string, top?: number) => Promise<{ top: SelfTime[]; busyPercent: number }>> {
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  await send('Profiler.start');
  return async (file, top = 15) => {
    const { profile } = (await send('Profiler.stop')) as { profile: Profile };
    await send('Profiler.disable');
    writeFileSync(file, JSON.stringify(profile));
    return summarise(profile, top);
  };
}

/** Profiles `page` for `seconds`, writes `file`, and returns the top `top` functions by self time. */
export async function profilePage(
  page: Page,
  cdp: CDPSession,
  seconds: number,
  file: string,
  top = 15,
): Promise<{ top: SelfTime[]; busyPercent: number }> {
  const stop = await startProfile((method, params) => cdp.send(method as never, params as never));
  await page.waitForTimeout(seconds * 1000);
  return stop(file, top);
}

/** Self time per function (summed over every node of it), source-mapped, largest first. */
async function summarise(
  profile: Profile,
  top: number,
): Promise<{ top: SelfTime[]; busyPercent: number }> {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time is the gap to the next sample (the last one gets none).
  for (let i = 0; i < samples.length - 1; i++)
    selfUs.set(samples[i]!, (selfUs.get(samples[i]!) ?? 0) + (deltas[i + 1] ?? 0));

  const maps = new Map<string, TraceMap | undefined>();
  const mapFor = async (url: string) => {
    if (!maps.has(url)) maps.set(url, await fetchMap(url));
    return maps.get(url);
  };
  const byFunction = new Map<string, number>();
  let idleUs = 0;
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byNode.get(id)!.callFrame;
    totalUs += us;
    if (frame.functionName === '(idle)') idleUs += us;
    const key = SYNTHETIC.has(frame.functionName)
      ? frame.functionName
      : describe(frame, await mapFor(frame.url));
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  const busyUs = totalUs - idleUs;
  const ranked = [...byFunction]
    .filter(([where]) => where !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([where, us]) => ({ where, ms: us / 1000, percent: (100 * us) / busyUs }));
  return { top: ranked, busyPercent: totalUs === 0 ? NaN : (100 * busyUs) / totalUs };
}

/** `name (source:line)` of a position in one of the page's scripts, through its source map when it has one. */
export async function whereIs(
  frame: { functionName: string; url: string; lineNumber: number; columnNumber: number },
  maps = new Map<string, TraceMap | undefined>(),
): Promise<string> {
  if (!maps.has(frame.url)) maps.set(frame.url, await fetchMap(frame.url));
  return describe(frame, maps.get(frame.url));
}

async function fetchMap(url: string): Promise<TraceMap | undefined> {
  if (!/^https?:\/\/.*\.js$/.test(url)) return undefined;
  try {
    const response = await fetch(`${url}.map`);
    return response.ok ? new TraceMap((await response.json()) as never) : undefined;
  } catch {
    return undefined;
  }
}

function describe(frame: Profile['nodes'][number]['callFrame'], map: TraceMap | undefined) {
  const name = frame.functionName || '(anonymous)';
  if (!map) return `${name} (${frame.url.split('/').pop() || 'native'}:${frame.lineNumber + 1})`;
  const original = originalPositionFor(map, {
    line: frame.lineNumber + 1,
    column: frame.columnNumber,
  });
  if (!original.source) return `${name} (${frame.url.split('/').pop()})`;
  const source = original.source.replace(/^(\.\.\/)+/, '').replace(/^node_modules\//, '');
  return `${original.name ?? name} (${source}:${original.line})`;
}

/** The summary as printable lines. */
export function formatProfile(
  label: string,
  summary: { top: SelfTime[]; busyPercent: number },
  thread = 'main thread',
) {
  return [
    `${label}: ${thread} busy ${summary.busyPercent.toFixed(0)}% of the profiled time; top self time:`,
    ...summary.top.map(
      (f) =>
        `  ${f.percent.toFixed(1).padStart(5)}%  ${f.ms.toFixed(0).padStart(6)} ms  ${f.where}`,
    ),
  ];
}
