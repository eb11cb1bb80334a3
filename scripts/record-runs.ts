/**
 * `npm run record-runs`: makes the recorded runs shipped in `public/runs/`
 * (the "Watch a recording" links of `src/ui/state/recorded-runs.ts`). Each
 * scenario that has one is played in Chromium on the production build, in a
 * fresh browser context (nothing stored), from its address at full speed
 * (`?scenario=<id>&speed=max`); once it has passed, the page's own "Save run"
 * (in the header's Run menu)
 * is pressed and the file it downloads is written, after `parseRunFile` has
 * read it back. A scenario that fails is not written (and the command exits 1).
 *
 *   npm run record-runs                  # builds first
 *   npm run record-runs -- --no-build    # uses dist/ as it is
 *   npm run record-runs -- cancel-race   # only the scenarios named
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { expect, type Browser } from '@playwright/test';
import { parseRunFile } from '../src/record/run-file.ts';
import { isScenarioId, type ScenarioId } from '../src/scenarios/index.ts';
import { RECORDED_RUNS } from '../src/ui/state/recorded-runs.ts';
import { launchChromium } from './bench/chromium.ts';
import { serveStatic } from './bench/static-server.ts';

/** A run longer than this is a scenario stuck, not a slow machine. */
const SCENARIO_TIMEOUT_MS = 120_000;
/** The shipped files stay small: the app's download and the repository both carry them. */
const MAX_BYTES = 300_000;

const { values, positionals } = parseArgs({
  options: { 'no-build': { type: 'boolean', default: false } },
  allowPositionals: true,
});

async function record(browser: Browser, base: string, id: ScenarioId, file: string) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 720 },
    acceptDownloads: true,
  });
  try {
    const page = await context.newPage();
    await page.goto(`${base}/?scenario=${id}&speed=max`);
    const status = page.getByRole('status', { name: 'Scenario run' });
    await expect(status).toHaveText(/^(Passed|Failed)/, { timeout: SCENARIO_TIMEOUT_MS });
    const verdict = (await status.textContent())?.trim() ?? '';
    if (!verdict.startsWith('Passed')) throw new Error(`${id}: ${verdict}`);
    const downloading = page.waitForEvent('download');
    // Save run is in the header's Run menu.
    await page.getByRole('banner').getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Save run', exact: true }).click();
    const text = await readFile(await (await downloading).path(), 'utf8');
    const parsed = parseRunFile(text);
    if (!parsed.ok) throw new Error(`${id}: the saved run does not parse: ${parsed.error}`);
    if (parsed.run.scenario?.id !== id)
      throw new Error(`${id}: the saved run names scenario ${parsed.run.scenario?.id}`);
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_BYTES) throw new Error(`${id}: ${bytes} bytes, more than ${MAX_BYTES}`);
    writeFileSync(`public/runs/${file}`, text);
    console.log(
      `public/runs/${file}: ${parsed.run.events.length} events, ${(bytes / 1024).toFixed(0)} KB (${verdict})`,
    );
  } finally {
    await context.close();
  }
}

const unknown = positionals.filter((name) => !isScenarioId(name) || !RECORDED_RUNS[name]);
if (unknown.length > 0) {
  console.error(`no recorded run for: ${unknown.join(', ')}`);
  process.exit(2);
}
const chosen = Object.entries(RECORDED_RUNS).filter(
  ([id]) => positionals.length === 0 || positionals.includes(id),
) as [ScenarioId, string][];

if (!values['no-build']) {
  const build = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = await serveStatic('dist');
const browser = await launchChromium();
let failed = false;
try {
  for (const [id, file] of chosen) {
    try {
      await record(browser, server.url, id, file);
    } catch (error) {
      failed = true;
      console.error(error instanceof Error ? error.message : String(error));
    }
  }
} finally {
  await browser.close();
  await server.close();
}
process.exit(failed ? 1 : 0);
