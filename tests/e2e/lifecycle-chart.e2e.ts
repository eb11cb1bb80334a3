/**
 * The task's own lifecycle on its card, in real Chromium: the chart drawn
 * from the machine the server runs highlights the status the client last saw,
 * and beside it the x-ray of what the server's store holds now (sent by the
 * worker beside the MCP wire). Held to attributes the chart writes
 * (`data-client-saw`, `data-server-now`) and to the card's status badge, not
 * to pixels.
 */
import { expect, test, type Locator } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard } from './playground.ts';

const chartOf = (card: Locator): Locator =>
  card.getByRole('img', { name: /^Task lifecycle: working, input_required/ });

test.beforeEach(async ({ page }) => {
  // A busy machine (the first chart starts the layout worker) is slow; nothing here sleeps.
  test.setTimeout(90_000);
  await openPlayground(page);
});

test('T14, T15: the lifecycle chart highlights input_required while confirm_delete waits, and completed after the answer', async ({
  page,
}) => {
  await callTool(page, 'confirm_delete');
  const card = taskCard(page, 'confirm_delete');
  const chart = chartOf(card);
  // The first chart of a page starts the layout worker: slow on a busy machine.
  await expect(chart).toBeVisible({ timeout: 30_000 });
  await expect(serverStatus(card)).toHaveText('input_required');
  await expect(chart).toHaveAttribute('data-client-saw', 'input_required');
  await expect(chart).toHaveAttribute('data-server-now', 'input_required');
  await expect(chart.locator('[data-client="true"]')).toHaveAttribute(
    'data-state',
    'input_required',
  );
  await expect(card.getByText('client last saw')).toBeVisible();
  await expect(card.getByText('server store now (x-ray)')).toBeVisible();

  const form = page.getByRole('form', { name: /Input request confirm/ });
  await form.getByLabel('Delete it').check();
  await form.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(serverStatus(card)).toHaveText('completed');
  await expect(chart).toHaveAttribute('data-client-saw', 'completed');
  await expect(chart).toHaveAttribute('data-server-now', 'completed');
  await expect(chart.locator('[data-client="true"]')).toHaveAttribute('data-state', 'completed');
});

test('T12: between polls the x-ray and the client disagree, and the next tasks/get makes them agree', async ({
  page,
}) => {
  // The job ends after 1 s; the client's first poll is 10 s away (the tool's longest interval).
  await callTool(page, 'slow_compute', { seconds: '1', pollIntervalMs: '10000' });
  const card = taskCard(page, 'slow_compute');
  const chart = chartOf(card);
  await expect(chart).toBeVisible({ timeout: 30_000 });
  const views = card.locator('[data-views]');

  // The store says completed while the client still shows working: the gap, said in words.
  await expect(chart).toHaveAttribute('data-server-now', 'completed', { timeout: 9_000 });
  await expect(chart).toHaveAttribute('data-client-saw', 'working');
  await expect(views).toHaveAttribute('data-views', 'behind');
  await expect(card).toContainText('up to 10000 ms late (T12)');

  // The next tasks/get: they agree, and the sentence goes.
  await expect(chart).toHaveAttribute('data-client-saw', 'completed', { timeout: 20_000 });
  await expect(views).toHaveAttribute('data-views', 'agree');
  await expect(card).not.toContainText('ms late (T12)');
});

test('T13: with the server killed there is no x-ray, said rather than shown stale', async ({
  page,
}) => {
  await callTool(page, 'slow_compute', { seconds: '30' });
  const card = taskCard(page, 'slow_compute');
  const chart = chartOf(card);
  await expect(chart).toHaveAttribute('data-server-now', 'working', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Kill server' }).click();
  await expect(chart).toHaveAttribute('data-server-now', '');
  await expect(card.locator('[data-views]')).toHaveAttribute('data-views', 'no-xray');
  await expect(card).toContainText('No x-ray: the server is down');
  // The client still shows what it last heard.
  await expect(chart).toHaveAttribute('data-client-saw', 'working');
});

test('a chart drawn pulses nothing; the status the client hears next pulses once', async ({
  page,
}) => {
  // A card drawn (called, or scrolled into view) is no news: a pulse on every card drawn kept
  // the list repainting all through a fast scroll.
  await callTool(page, 'slow_compute', { seconds: '2', pollIntervalMs: '500' });
  const card = taskCard(page, 'slow_compute');
  const chart = chartOf(card);
  await expect(chart).toHaveAttribute('data-client-saw', 'working', { timeout: 30_000 });
  await expect(chart.locator('rect.pulse')).toHaveCount(0);
  await expect(chart).toHaveAttribute('data-client-saw', 'completed', { timeout: 20_000 });
  // The ring stays in the drawing (faded out) until the next change: one, around completed.
  const pulse = chart.locator('rect.pulse');
  await expect(pulse).toHaveCount(1);
  await expect(pulse).toHaveAttribute(
    'x',
    (await chart.locator('[data-state="completed"] rect.box').getAttribute('x')) ?? '',
  );
});
