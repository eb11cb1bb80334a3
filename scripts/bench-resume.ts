/**
 * How long a reload takes to resume stored tasks, measured in Chromium
 * against the production build:
 *
 *   npx vite build && npx tsx scripts/bench-resume.ts      (or: npm run bench:resume)
 *
 * The page follows TASKS (default 100) long slow_compute tasks on the
 * IndexedDB server store, then reloads RUNS (default 5) times. Per reload,
 * in the page's own clock (ms since the navigation started):
 * - seeded:   every stored task (and the kept wire log) read back and a fresh
 *             actor started for each (the `playground:tasks-resumed` mark; the
 *             restore itself starts at `playground:restore-start`);
 * - shown:    every card on screen;
 * - re-polled: every task answered by the server again (its poll count went up).
 * Also printed: the wire messages restored with the page (capped at 3000).
 *
 * Serves dist/ (or DIST) with `vite preview` on PORT (default 4189) unless BASE_URL is given.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';

const PORT = Number(process.env['PORT'] ?? 4189);
const BASE_URL = process.env['BASE_URL'] ?? `http://127.0.0.1:${PORT}`;
const TASKS = Number(process.env['TASKS'] ?? 100);
const RUNS = Number(process.env['RUNS'] ?? 5);
const DIST = process.env['DIST'] ?? 'dist';
const CHROMIUM = '/usr/bin/chromium';

const CARDS = 'section[aria-labelledby="tasks-heading"] article';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function serve(): Promise<ChildProcess | undefined> {
  if (process.env['BASE_URL']) return undefined;
  // Its own process group, so stopping it stops vite too, not only npx.
  const server = spawn('npx', ['vite', 'preview', '--port', String(PORT), '--strictPort', '--host', '127.0.0.1', '--outDir', DIST], { stdio: 'ignore', detached: true });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(BASE_URL)).ok) return server;
    } catch {
      // Not up yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  stop(server);
  throw new Error(`vite preview did not come up on ${BASE_URL} (run npx vite build first)`);
}

function stop(server: ChildProcess): void {
  if (server.pid !== undefined) process.kill(-server.pid);
}

/** Each card's poll count, by taskId (the card's "Polls" fact). */
function pollCounts(page: Page): Promise<Record<string, number>> {
  return page.evaluate((selector) => {
    const counts: Record<string, number> = {};
    for (const card of document.querySelectorAll(selector)) {
      const id = card.querySelector('code.task-id')?.textContent?.trim() ?? '';
      const facts = [...card.querySelectorAll('.fact')];
      const polls = facts.find((f) => f.querySelector('dt')?.textContent?.trim() === 'Polls')?.querySelector('dd')?.textContent ?? '0';
      counts[id] = Number(polls);
    }
    return counts;
  }, CARDS);
}

async function main(): Promise<void> {
  const server = await serve();
  const browser = await chromium.launch({ ...(existsSync(CHROMIUM) ? { executablePath: CHROMIUM } : {}), args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(BASE_URL);
    await page.getByRole('status').filter({ hasText: 'Connected as learner' }).waitFor();
    await page.getByRole('radio', { name: 'IndexedDB' }).check();
    await page.getByRole('status', { name: 'Server store in use' }).filter({ hasText: 'IndexedDB' }).waitFor();

    console.error(`following ${TASKS} slow_compute tasks on the IndexedDB store…`);
    await page.getByRole('button', { name: /^slow_compute\b/ }).click();
    const form = page.getByRole('form', { name: 'slow_compute' });
    await form.getByLabel('seconds', { exact: true }).fill('600');
    // Clicked in the page, all at once: with many tasks polling, the growing wire log makes each Playwright click slow.
    await form.getByRole('button', { name: 'Call slow_compute' }).evaluate((button: HTMLButtonElement, n: number) => {
      for (let i = 0; i < n; i++) button.click();
    }, TASKS);
    await page.waitForFunction(([selector, n]) => document.querySelectorAll(selector as string).length >= (n as number), [CARDS, TASKS] as const, { timeout: 180_000 });
    // Every task polled at least once, so each one's facts are written down.
    for (let i = 0; i < 300 && Object.values(await pollCounts(page)).some((n) => n === 0); i++) await page.waitForTimeout(100);
    await page.waitForTimeout(1500);

    console.log(`Resuming ${TASKS} stored tasks after a reload, in Chromium (${RUNS} reloads; ms since navigation start):`);
    const restoring: number[] = [];
    const seeded: number[] = [];
    const shown: number[] = [];
    const repolled: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      console.error(`reload ${run}…`);
      const before = await pollCounts(page);
      await page.reload({ waitUntil: 'commit' });
      await page.waitForFunction(([selector, n]) => document.querySelectorAll(selector as string).length >= (n as number), [CARDS, TASKS] as const, { timeout: 180_000 });
      const shownAt = await page.evaluate(() => performance.now());
      const [restoreAt, seededAt] = await page.evaluate(() =>
        ['playground:restore-start', 'playground:tasks-resumed'].map((name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN),
      );
      await page.waitForFunction(
        ([selector, counts]) =>
          [...document.querySelectorAll(selector as string)].every((card) => {
            const id = card.querySelector('code.task-id')?.textContent?.trim() ?? '';
            const facts = [...card.querySelectorAll('.fact')];
            const polls = Number(facts.find((f) => f.querySelector('dt')?.textContent?.trim() === 'Polls')?.querySelector('dd')?.textContent ?? '0');
            return polls > ((counts as Record<string, number>)[id] ?? 0);
          }),
        [CARDS, before] as const,
        { timeout: 180_000, polling: 20 },
      );
      const repolledAt = await page.evaluate(() => performance.now());
      const wireRows = await page.getByRole('list', { name: 'Wire log messages' }).getByRole('listitem').count();
      restoring.push(seededAt! - restoreAt!);
      seeded.push(seededAt!);
      shown.push(shownAt);
      repolled.push(repolledAt);
      console.log(
        `  reload ${run}: restore began ${restoreAt!.toFixed(0)} ms, all seeded ${seededAt!.toFixed(0)} ms (restore took ${(seededAt! - restoreAt!).toFixed(0)} ms), all ${TASKS} cards shown ${shownAt.toFixed(0)} ms, all re-polled ${repolledAt.toFixed(0)} ms (${wireRows} wire rows on screen)`,
      );
    }
    console.log(
      `median: restore (read storage, seed ${TASKS} actors) ${median(restoring).toFixed(0)} ms; from navigation: seeded ${median(seeded).toFixed(0)} ms, shown ${median(shown).toFixed(0)} ms, re-polled ${median(repolled).toFixed(0)} ms`,
    );

    // Leave nothing behind for the next run.
    await page.getByRole('button', { name: 'Clear everything…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Clear everything', exact: true }).click();
    await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 0, CARDS);
  } finally {
    await browser.close();
    if (server) stop(server);
  }
}

await main();
