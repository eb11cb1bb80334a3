/**
 * How long the statechart's elk layout takes in Chromium, and the page's
 * frame time while 20 tasks are followed (with faults on, the statechart of
 * one of them open and animating, then the sequence view).
 *
 *   npx vite build && npx tsx scripts/measure-statechart.ts
 *
 * Serves dist/ with `vite preview` on PORT (default 4188) unless BASE_URL is
 * given. Frame time is the delta between requestAnimationFrame callbacks;
 * headless Chromium paces frames at 60 Hz, so ~16.7 ms is a frame on time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { chromium, type Page } from '@playwright/test';
import { machineGraph } from '../src/machines/machine-graph.ts';
import { taskMachine } from '../src/machines/task-machine.ts';
import { toElk } from '../src/ui/statechart/chart-layout.ts';
import { LAYOUT_MARK } from '../src/ui/statechart/elk-engine.ts';

const PORT = Number(process.env['PORT'] ?? 4188);
const BASE_URL = process.env['BASE_URL'] ?? `http://127.0.0.1:${PORT}`;
const TASKS = Number(process.env['TASKS'] ?? 20);
const SECONDS = Number(process.env['SECONDS'] ?? 6);
const CHROMIUM = '/usr/bin/chromium';

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1).padStart(6);
  return `n=${String(sorted.length).padStart(4)}  p50 ${f(percentile(sorted, 50))} ms  p95 ${f(percentile(sorted, 95))} ms  p99 ${f(percentile(sorted, 99))} ms  max ${f(sorted.at(-1) ?? NaN)} ms`;
}

/** requestAnimationFrame deltas over `seconds`, in the page (a string: tsx's helpers do not exist there). */

/** elk's time for the first chart, from the mark the page's layout engine leaves (`LAYOUT_MARK`). */
async function layoutMs(page: Page): Promise<string> {
  return page.evaluate((name) => {
    const [mark] = performance.getEntriesByName(name, 'mark') as PerformanceMark[];
    const detail: unknown = mark?.detail;
    return typeof detail === 'object' && detail !== null && 'elapsedMs' in detail
      ? Number(detail.elapsedMs).toFixed(1)
      : 'unknown';
  }, LAYOUT_MARK);
}

async function frameDeltas(page: Page, seconds: number): Promise<number[]> {
  return page.evaluate(`new Promise((resolve) => {
    const deltas = [];
    let last = 0;
    let end = 0;
    function frame(now) {
      deltas.push(now - last);
      last = now;
      if (now < end) requestAnimationFrame(frame);
      else resolve(deltas);
    }
    requestAnimationFrame((now) => {
      last = now;
      end = now + ${seconds * 1000};
      requestAnimationFrame(frame);
    });
  })`);
}

async function startPreview(): Promise<ChildProcess | undefined> {
  if (process.env['BASE_URL']) return undefined;
  if (!existsSync('dist/index.html'))
    throw new Error('dist/ is missing: run `npx vite build` first');
  const preview = spawn(
    'npx',
    ['vite', 'preview', '--port', String(PORT), '--strictPort', '--host', '127.0.0.1'],
    { stdio: 'ignore', detached: true },
  );
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(BASE_URL)).ok) return preview;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`vite preview did not start on ${BASE_URL}`);
}

async function main(): Promise<void> {
  const preview = await startPreview();
  const browser = await chromium.launch({
    ...(existsSync(CHROMIUM) ? { executablePath: CHROMIUM } : {}),
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const load = loadavg()
      .map((n) => n.toFixed(1))
      .join(' ');
    console.log(
      `Chromium ${browser.version()}, ${BASE_URL}, 1280x720, ${cpus().length} CPUs, load average ${load}\n`,
    );

    // 1. elk alone, in the page, on the task machine's graph: cold (first run) and warm.
    const require = createRequire(import.meta.url);
    await page.goto(BASE_URL);
    await page.addScriptTag({ path: require.resolve('elkjs/lib/elk.bundled.js') });
    const input = toElk(machineGraph(taskMachine));
    // One elk instance, as the app keeps: the first run pays for elk's warm-up.
    const runs: number[] = await page.evaluate(
      `(async (graph) => {
        const elk = new window.ELK();
        const times = [];
        for (let i = 0; i < 21; i++) {
          const started = performance.now();
          await elk.layout(structuredClone(graph));
          times.push(performance.now() - started);
        }
        return times;
      })`.concat('(', JSON.stringify(input), ')'),
    );
    const [cold, ...warm] = runs;
    const graph = machineGraph(taskMachine);
    console.log(
      `elk layout of the task machine (${graph.nodes.length} states, ${graph.edges.length} transitions), in Chromium:`,
    );
    console.log(`  first run (cold JIT): ${cold!.toFixed(1)} ms`);
    console.log(`  warm runs:            ${stats(warm)}`);

    // 2. The page: open a statechart (its one layout, measured by the app), then 20 tasks.
    await page.goto(BASE_URL);
    await page.getByRole('button', { name: /^slow_compute\b/ }).click();
    const form = page.getByRole('form', { name: 'slow_compute' });
    await form.getByLabel('seconds', { exact: true }).fill('120');

    const idle = await frameDeltas(page, SECONDS);
    console.log(`\nframe time, idle page:                               ${stats(idle)}`);

    for (let i = 0; i < TASKS; i++)
      await form.getByRole('button', { name: 'Call slow_compute' }).click();
    const cards = page.getByRole('region', { name: 'Tasks' }).getByRole('article');
    await cards.nth(TASKS - 1).waitFor();
    await page.waitForTimeout(1500);
    console.log(
      `\n${await cards.count()} tasks followed (slow_compute, 120 s, polling every 500 ms)`,
    );
    console.log(
      `frame time, ${TASKS} tasks, wire log:                      ${stats(await frameDeltas(page, SECONDS))}`,
    );

    // Faults on: latency with jitter, some loss, duplicates and reordering, both ways.
    const faults: [string, string][] = [
      ['Latency to server (ms)', '120'],
      ['Jitter to server (ms)', '80'],
      ['Loss to server (%)', '10'],
      ['Latency to client (ms)', '120'],
      ['Jitter to client (ms)', '80'],
      ['Duplicate to client (%)', '10'],
      ['Reorder to client (%)', '10'],
    ];
    let faultsOn = false;
    try {
      await page.getByText('Link conditions', { exact: true }).click({ timeout: 15_000 });
      for (const [label, value] of faults) {
        const field = page.getByLabel(label, { exact: true });
        await field.fill(value, { timeout: 15_000 });
        await field.press('Tab');
      }
      faultsOn = true;
    } catch {
      console.log('(fault panel not found: measuring without faults)');
    }
    const withFaults = faultsOn ? ' + faults' : '';
    await page.waitForTimeout(1000);
    console.log(
      `frame time, ${TASKS} tasks${withFaults}, wire log:             ${stats(await frameDeltas(page, SECONDS))}`,
    );

    const opened = performance.now();
    await cards.first().getByRole('button', { name: 'Statechart' }).click();
    const chart = page.locator('svg.chart');
    await chart.waitFor();
    const shown = performance.now() - opened;
    console.log(
      `\nstatechart opened: elk layout in the app ${await layoutMs(page)} ms (cold, first chart); click to chart drawn ${shown.toFixed(0)} ms (incl. loading the elk chunk)`,
    );
    console.log(
      `frame time, ${TASKS} tasks${withFaults}, statechart open:      ${stats(await frameDeltas(page, SECONDS))}`,
    );
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Sequence' }).click();
    await page.waitForTimeout(500);
    console.log(
      `frame time, ${TASKS} tasks${withFaults}, sequence view:        ${stats(await frameDeltas(page, SECONDS))}`,
    );
    const rows = await page
      .getByRole('list', { name: 'Sequence messages' })
      .getByRole('listitem')
      .count();
    console.log(`  (${rows} sequence rows drawn)`);
  } finally {
    await browser.close();
    if (preview?.pid) process.kill(-preview.pid);
  }
}

await main();
