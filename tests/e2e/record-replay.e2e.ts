/**
 * Record live, replay later, in Chromium: a run with a drop (a fault panel
 * rule) and a cancel race is recorded as it happens; the world is held
 * still at the moment of the drop (a breakpoint on the cancel, then Step)
 * and what the page shows then is captured: the wire log's rows, the
 * sequence view's messages and marks, the task's status and the states its
 * lifecycle chart highlights. The run is saved with Save run; a fresh
 * browser context (nothing stored) opens the file and steps to the drop,
 * and shows the same.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { parseRunFile } from '../../src/record/run-file.ts';
import { armRule } from './fault-panel.ts';
import { callTool, chooseInRunMenu, openPlayground, serverStatus, taskCard } from './playground.ts';

const timeControl = (page: Page) =>
  page.getByRole('banner').getByRole('group', { name: 'World time' });
const replayBar = (page: Page) => page.getByRole('region', { name: 'Replay' });
const DROP = /link #\d+ broken/;

/** What a moment looks like on the page: the views the replay must show alike. */
interface Moment {
  wire: string[];
  sequence: string[];
  status: string;
  chart: { client: string | null; server: string | null };
}

/** Each wire log row's text, as drawn: messages, and the faults between them (separators). */
const wireText = (page: Page): Promise<string[]> =>
  page
    .getByRole('list', { name: 'Wire log messages' })
    .locator(':scope > *')
    .evaluateAll((rows) => rows.map((row) => (row.textContent ?? '').replace(/\s+/g, ' ').trim()));

/** Each sequence message: which way, what, its marks (lost, re-issued...), and its words. */
async function sequenceText(page: Page): Promise<string[]> {
  await page.getByRole('tab', { name: 'Sequence' }).click();
  const items = page.getByRole('list', { name: 'Sequence messages' }).getByRole('listitem');
  await expect(items.first()).toBeVisible();
  const text = await items.evaluateAll((rows) =>
    rows.map((row) => {
      const data = (row as HTMLElement).dataset;
      const words = (row.textContent ?? '').replace(/\s+/g, ' ').trim();
      return `${data['direction']} ${data['kind']} ${data['method']} [${data['marks']}] ${words}`;
    }),
  );
  await page.getByRole('tab', { name: 'Wire log' }).click();
  return text;
}

async function momentOf(page: Page, card: Locator): Promise<Moment> {
  const chart = card.locator('svg').first();
  return {
    wire: await wireText(page),
    sequence: await sequenceText(page),
    status: ((await serverStatus(card).textContent()) ?? '').trim(),
    chart: {
      client: await chart.locator('[data-client="true"]').getAttribute('data-state'),
      server: await chart.locator('[data-server="true"]').getAttribute('data-state'),
    },
  };
}

async function setCancelBreakpoint(page: Page, on: boolean): Promise<void> {
  const time = timeControl(page);
  await time.locator('summary').click();
  await time.getByLabel('Pause when a tasks/cancel is in flight').setChecked(on);
  await page.keyboard.press('Escape');
}

test('C8, T17: a run recorded live with a drop and a cancel race, reopened with nothing stored and stepped to the drop, shows what the page showed then', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await openPlayground(page);
  await armRule(page, 'a tasks/cancel reaches the server', 'drop the connection');
  await setCancelBreakpoint(page, true);

  // The race, held still: the cancel is paused in flight while the job runs on the server
  // (long enough that a loaded machine cannot finish it before the click).
  await callTool(page, 'slow_compute', { seconds: '20' });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('working');
  const taskId = await card.getAttribute('data-task-id');
  await card.getByRole('button', { name: 'Cancel task' }).click();
  const time = timeControl(page);
  await expect(time.getByRole('status')).toHaveText('Paused');

  // The world holds still with the cancel in flight; Step moves it on one timer at a time,
  // until the cancel has reached the server and the rule has dropped the link.
  const wire = page.getByRole('region', { name: 'Wire log' });
  await expect
    .poll(
      async () => {
        if ((await wire.getByText(DROP).count()) > 0) return 'dropped';
        await time.getByRole('button', { name: 'Step' }).click();
        return 'stepping';
      },
      { timeout: 30_000, intervals: [300], message: 'the drop strikes as the world steps on' },
    )
    .toBe('dropped');
  const live = await momentOf(page, card);
  // What is compared is not empty: the cancel sent, the drop, the sequence, the chart's highlight.
  expect(live.wire.some((row) => DROP.test(row))).toBe(true);
  expect(live.wire.some((row) => row.includes('tasks/cancel'))).toBe(true);
  expect(live.sequence.length).toBeGreaterThan(0);
  expect(live.chart.client).not.toBeNull();

  // Let the world go on to the end of the race, then save the run.
  await setCancelBreakpoint(page, false);
  await time.getByRole('button', { name: 'Resume' }).click();
  await expect(serverStatus(card)).toHaveText(/^(cancelled|completed)$/, { timeout: 30_000 });
  const downloading = page.waitForEvent('download');
  await chooseInRunMenu(page, 'Save run');
  const download = await downloading;
  const text = await readFile(await download.path(), 'utf8');
  const verdict = parseRunFile(text);
  expect(verdict.ok ? 'parses' : verdict.error).toBe('parses');

  // A fresh context: nothing stored, the live run gone.
  const fresh = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  try {
    const other = await fresh.newPage();
    await other.goto('/');
    await expect(other.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible(
      { timeout: 30_000 },
    );
    await other.getByLabel('Open a run file to replay').setInputFiles({
      name: 'race.json',
      mimeType: 'application/json',
      buffer: Buffer.from(text),
    });
    const bar = replayBar(other);
    // Checked and indexed first: slow on a loaded machine.
    await expect(bar.getByText('Replay of race.json')).toBeVisible({ timeout: 30_000 });
    const replayWire = other.getByRole('region', { name: 'Wire log' });
    // To just before the drop on the slider, then step by state change onto it.
    const drop = verdict.ok
      ? verdict.run.events.find((e) => e.kind === 'fault' && e.notice.kind === 'drop')
      : undefined;
    expect(drop, 'the drop is in the run').toBeDefined();
    await other.getByRole('slider', { name: 'Time in the run' }).fill(String(drop!.at - 1));
    await expect(replayWire.getByText(DROP)).toHaveCount(0);
    await expect
      .poll(
        async () => {
          if ((await replayWire.getByText(DROP).count()) > 0) return 'at the drop';
          await other.keyboard.press('Shift+ArrowRight');
          return 'stepping';
        },
        { timeout: 30_000, intervals: [500], message: 'stepping the replay to the drop' },
      )
      .toBe('at the drop');
    await expect(bar.getByRole('status')).toContainText(`${(drop!.at / 1000).toFixed(2)} s /`);
    const replayCard = other.locator(`.replay-layer [data-task-id="${taskId}"]`);
    await expect(replayCard).toBeVisible();
    expect(await momentOf(other, replayCard)).toEqual(live);
  } finally {
    await fresh.close();
  }
});
