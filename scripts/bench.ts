/**
 * `npm run bench`: every performance figure beside a reference measured in
 * the same run (or a stated budget), and their ratio. Prints a table and
 * writes bench-results/<timestamp>.json and bench-results/latest.json, so
 * runs can be compared. A script, never a test: nothing fails on time, only
 * on a real error (a part that could not measure).
 *
 *   npm run bench                     # full size (a few minutes)
 *   npm run bench -- --small          # CI size, each part a few seconds (npm run bench:ci)
 *   npm run bench -- --only resume,node-host
 *   npm run bench -- --no-build       # reuse dist/ (as `npm test` just built it) and dist-bench/
 *
 * One file per part in scripts/bench/. Chromium is Debian's /usr/bin/chromium.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Browser } from '@playwright/test';
import { bundleSize } from './bench/bundle-size.ts';
import { launchChromium } from './bench/chromium.ts';
import { cluster } from './bench/cluster.ts';
import { followerMachine } from './bench/follower-machine.ts';
import type { BenchContext, BenchPart } from './bench/context.ts';
import { table, type Figure } from './bench/figures.ts';
import { goals, goalTable } from './bench/goals.ts';
import { nodeHost } from './bench/node-host.ts';
import { pageFollow } from './bench/page-follow.ts';
import { pageHeap } from './bench/page-heap.ts';
import { resume } from './bench/resume.ts';
import { runFile } from './bench/run-file.ts';
import { scheduleFloor } from './bench/schedule-floor.ts';
import { serveStatic } from './bench/static-server.ts';
import { workerRoundTrip } from './bench/worker-roundtrip.ts';

const PARTS: readonly BenchPart[] = [
  bundleSize,
  workerRoundTrip,
  nodeHost,
  cluster,
  pageFollow,
  pageHeap,
  scheduleFloor,
  followerMachine,
  resume,
  runFile,
];
const RESULTS = 'bench-results';

const { values } = parseArgs({
  options: {
    small: { type: 'boolean', default: false },
    only: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
  strict: true,
});
const chosen = values.only?.split(',').map((s) => s.trim()) ?? PARTS.map((p) => p.name);
const unknown = chosen.filter((name) => !PARTS.some((p) => p.name === name));
if (unknown.length > 0) {
  console.error(
    `unknown part(s): ${unknown.join(', ')}; parts are ${PARTS.map((p) => p.name).join(', ')}`,
  );
  process.exit(2);
}
const log = (message: string) => console.error(message);

function build(label: string, args: string[], output: string): void {
  if (values['no-build'] && existsSync(output)) return log(`reusing ${output}`);
  log(`building ${label}…`);
  const result = spawnSync('npx', ['vite', 'build', ...args], { encoding: 'utf8' });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    throw new Error(`vite build (${label}) failed`);
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  mkdirSync(RESULTS, { recursive: true });
  build('the app', [], 'dist/index.html');
  build('the bench pages', ['--config', 'vite.bench.config.ts'], 'dist-bench/schedule-floor.html');
  const app = await serveStatic('dist');
  const benchPages = await serveStatic('dist-bench', { isolated: true });
  let browser: Promise<Browser> | undefined;
  const ctx: BenchContext = {
    small: values.small,
    browser: () => (browser ??= launchChromium()),
    appUrl: app.url,
    benchUrl: benchPages.url,
    outDir: RESULTS,
    log,
  };
  const figures: Figure[] = [];
  const failures: { part: string; error: string }[] = [];
  const partSeconds: Record<string, number> = {};
  try {
    for (const part of PARTS.filter((p) => chosen.includes(p.name))) {
      const partStarted = Date.now();
      try {
        figures.push(...(await part.run(ctx)));
      } catch (error) {
        failures.push({
          part: part.name,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
        log(`[${part.name}] FAILED: ${error instanceof Error ? error.message : String(error)}`);
      }
      partSeconds[part.name] = (Date.now() - partStarted) / 1000;
      log(`[${part.name}] ${partSeconds[part.name]!.toFixed(1)} s`);
    }
  } finally {
    if (browser) await (await browser).close();
    await app.close();
    await benchPages.close();
  }

  const chromium = browser ? (await browser).version() : undefined;
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    loadAverage: loadavg(),
    node: process.version,
    chromium,
  };
  console.log(
    `\n${values.small ? 'Small (CI) run: indicative only' : 'Full run'}, ${machine.cpus} CPUs, load ${machine.loadAverage.map((n) => n.toFixed(1)).join(' ')}, Node ${machine.node}${chromium ? `, Chromium ${chromium}` : ''}\n`,
  );
  console.log(table(figures));
  for (const f of figures.filter((f) => f.note)) console.log(`  ${f.part} / ${f.name}: ${f.note}`);
  const goalResults = goals(figures);
  if (goalResults.length > 0) console.log(`\nGoals (issue 16)\n${goalTable(goalResults)}`);
  for (const failure of failures) console.log(`\nFAILED ${failure.part}:\n${failure.error}`);

  const at = new Date(started).toISOString();
  const report = {
    at,
    small: values.small,
    parts: chosen,
    seconds: (Date.now() - started) / 1000,
    partSeconds,
    machine,
    figures,
    goals: goalResults,
    failures,
  };
  mkdirSync(RESULTS, { recursive: true });
  const file = `${RESULTS}/${at.replaceAll(':', '-')}${values.small ? '-small' : ''}.json`;
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${RESULTS}/latest.json`, `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `\n${figures.length} figures in ${report.seconds.toFixed(0)} s; written to ${file} and ${RESULTS}/latest.json`,
  );
  return failures.length === 0 ? 0 : 1;
}

process.exitCode = await main();
