/**
 * What the page allocates per `tasks/get` on its own path (the session's
 * client, its clean FaultyNetwork, the batched worker port, the journal on
 * a memory store: the worker-roundtrip bench's `memory-net` target), by
 * function: Chromium's sampling heap profiler (CDP
 * `HeapProfiler.startSampling`, objects a minor or major GC collected
 * included) while requests are kept in flight, divided by the requests
 * done. Sampled: bytes are estimates (one sample per `SAMPLING_BYTES` on
 * average), good for shares and for before/after, not for exact counts.
 *
 *   npx tsx scripts/bench/allocation-per-poll.ts [dist-bench folder] [seconds]
 */
import { launchChromium } from './chromium.ts';
import { sourcesOf } from './cpu-profile.ts';
import { describeFrame } from './profile-attribution.ts';
import { openRoundtripPage } from './roundtrip-page.ts';
import { serveStatic } from './static-server.ts';

const SAMPLING_BYTES = 128;
const IN_FLIGHT = 16;

interface SamplingNode {
  callFrame: {
    functionName: string;
    url: string;
    lineNumber: number;
    columnNumber: number;
    scriptId: string;
  };
  selfSize: number;
  children: SamplingNode[];
}

const folder = process.argv[2] ?? 'dist-bench';
const seconds = Number(process.argv[3] ?? 3);
const server = await serveStatic(folder, { isolated: true });
const browser = await launchChromium();
try {
  const { page, cdp } = await openRoundtripPage(browser, server.url);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.startSampling', {
    samplingInterval: SAMPLING_BYTES,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  const done = await page.evaluate(({ ms, inFlight }) => window.bench.saturateFor(ms, inFlight), {
    ms: seconds * 1000,
    inFlight: IN_FLIGHT,
  });
  const { profile } = (await cdp.send('HeapProfiler.stopSampling')) as {
    profile: { head: SamplingNode };
  };
  const nodes: SamplingNode[] = [];
  const walk = (node: SamplingNode): void => {
    nodes.push(node);
    node.children.forEach(walk);
  };
  walk(profile.head);
  const sourceOf = await sourcesOf({
    nodes: nodes.map((n, id) => ({ id, callFrame: n.callFrame })),
  } as never);
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const node of nodes) {
    if (node.selfSize === 0) continue;
    total += node.selfSize;
    const source = sourceOf(node.callFrame as never);
    const name = describeFrame(source);
    byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
    const file = source.file.startsWith('src/')
      ? source.file
      : source.file.includes('node_modules')
        ? source.file.replace(/.*node_modules\/([^/]+).*/, '$1')
        : source.file || '(native)';
    byFile.set(file, (byFile.get(file) ?? 0) + node.selfSize);
  }
  const per = (bytes: number) => `${(bytes / done).toFixed(0).padStart(6)} B`;
  console.log(
    `${done} tasks/get in ${seconds} s with ${IN_FLIGHT} in flight; allocated ${per(total)} per tasks/get (sampled every ${SAMPLING_BYTES} B)`,
  );
  console.log('by function, bytes per tasks/get:');
  for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`  ${per(bytes)}  ${name}`);
  console.log('by file:');
  for (const [file, bytes] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 20))
    console.log(`  ${per(bytes)}  ${file}`);
} finally {
  await browser.close();
  await server.close();
}
