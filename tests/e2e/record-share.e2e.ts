/**
 * Record and share a run in real Chromium: a run with a dropped link and a
 * cancel, saved with the Run menu's "Save run", downloads a file that parses and holds both;
 * "Copy link" carries the seed and the armed rules, and a fresh browser
 * context opened on that link has the same seed and rules; a bad parameter
 * in the address is named while the rest applies.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { parseRunFile } from '../../src/record/run-file.ts';
import {
  callTool,
  chooseInRunMenu,
  openPlayground,
  rowJson,
  serverStatus,
  taskCard,
  wireRows,
} from './playground.ts';
import { armRule, faultPanel, openSection } from './fault-panel.ts';

const connected = (page: Page): Locator =>
  page.getByRole('status').filter({ hasText: 'Connected as learner' });

test('C8, T17: Save run downloads a run file that parses and holds the drop and the cancel', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await openPlayground(page);
  await armRule(page, 'a tasks/cancel reaches the server', 'drop the connection');
  // A long job, so the cancel lands while it runs even on a loaded machine.
  await callTool(page, 'slow_compute', { seconds: '60' });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('working');
  await card.getByRole('button', { name: 'Cancel task' }).click();
  await expect(serverStatus(card)).toHaveText('cancelled', { timeout: 20_000 });
  await expect(connected(page)).toBeVisible();

  const downloading = page.waitForEvent('download');
  await chooseInRunMenu(page, 'Save run');
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^run-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.json$/);
  await expect(page.getByTestId('run-share-status')).toContainText('Saved run-');
  const verdict = parseRunFile(await readFile(await download.path(), 'utf8'));
  if (!verdict.ok) throw new Error(verdict.error);
  const { events } = verdict.run;
  expect(events).toContainEqual(
    expect.objectContaining({ kind: 'fault', notice: expect.objectContaining({ kind: 'drop' }) }),
  );
  const sent = events.flatMap((e) =>
    e.kind === 'wire' && e.entry.direction === 'out' ? [e.entry.message] : [],
  );
  expect(sent).toContainEqual(expect.objectContaining({ method: 'tasks/cancel' }));
  expect(events).toContainEqual(
    expect.objectContaining({
      kind: 'tool-call',
      request: expect.objectContaining({ name: 'slow_compute' }),
    }),
  );
  expect(events.some((e) => e.kind === 'task-step')).toBe(true);
});

test('Copy link carries the seed and the rules; a fresh context opened on it has the same', async ({
  page,
  browser,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/?seed=4242&out=120,0,0,0,0');
  await expect(connected(page)).toBeVisible();
  await armRule(page, 'a tasks/get result arrives', 'lose that message');
  await chooseInRunMenu(page, 'Copy link');
  await expect(page.getByTestId('run-share-status')).toContainText('Link copied');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const params = new URL(link).searchParams;
  expect(params.get('seed')).toBe('4242');
  expect(params.get('out')).toBe('120,0,0,0,0');
  expect(params.get('rules')).toBe('poll-answered:lose');

  const fresh = await browser.newContext();
  try {
    const other = await fresh.newPage();
    await other.goto(link);
    await expect(connected(other)).toBeVisible();
    await openSection(other, 'Link conditions');
    await expect(faultPanel(other).getByLabel('Seed')).toHaveValue('4242');
    await openSection(other, 'Scheduled faults');
    await expect(faultPanel(other).getByRole('list', { name: 'Armed rules' })).toContainText(
      'a tasks/get result arrives',
    );
  } finally {
    await fresh.close();
  }
});

test('C8: a plain load puts its seed in the address at once; a reload keeps it, and a new seed replaces it in place', async ({
  page,
}) => {
  await page.goto('/');
  await expect(connected(page)).toBeVisible();
  await expect(page).toHaveURL(/\/\?seed=\d+$/);
  const seed = new URL(page.url()).searchParams.get('seed')!;
  await openSection(page, 'Link conditions');
  await expect(faultPanel(page).getByLabel('Seed')).toHaveValue(seed);

  await page.reload();
  await expect(connected(page)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`\\?seed=${seed}$`));
  await openSection(page, 'Link conditions');
  await expect(faultPanel(page).getByLabel('Seed')).toHaveValue(seed);

  const length = await page.evaluate(() => history.length);
  const next = seed === '31337' ? '31338' : '31337';
  await faultPanel(page).getByLabel('Seed').fill(next);
  await faultPanel(page).getByLabel('Seed').press('Tab');
  await expect(page).toHaveURL(new RegExp(`\\?seed=${next}$`));
  expect(await page.evaluate(() => history.length)).toBe(length);
});

test('a bad parameter in the address is named; the rest applies and nothing breaks', async ({
  page,
}) => {
  await page.goto('/?seed=77&nodes=9&rules=teleport:drop');
  await expect(connected(page)).toBeVisible();
  const alert = page.getByRole('alert').filter({ hasText: 'could not be used' });
  await expect(alert).toContainText('nodes: "9"');
  await expect(alert).toContainText('unknown trigger "teleport"');
  await openSection(page, 'Link conditions');
  await expect(faultPanel(page).getByLabel('Seed')).toHaveValue('77');
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await expect(alert).toBeHidden();
  await openPlayground(page);
});

test('every exact-JSON view has a Copy button that puts that JSON on the clipboard', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '1' });
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('completed');
  const json = await rowJson(page, 0);
  const row = wireRows(page).nth(0);
  await row.getByRole('button', { name: "Copy this message's JSON" }).click();
  await expect(row.getByRole('status')).toHaveText('Copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(JSON.parse(copied)).toEqual(json);
});
