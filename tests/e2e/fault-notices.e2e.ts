/**
 * Faults visible where they act, in real Chromium: a kill is a row in the
 * wire log and an event in the sequence view, placed where it struck, and
 * the card it hit says what it last heard and how long ago instead of
 * showing `working` as if fresh; the restarted in-memory server's -32602
 * is explained by its cause (C8, T13).
 */
import { expect, test, type Page } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard } from './playground.ts';

const header = (page: Page) => page.getByRole('banner');

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
});

test('C8, T13: kill the server mid-task: the wire log, the sequence view and the card show it; the restart explains the -32602', async ({
  page,
}) => {
  await callTool(page, 'slow_compute', { seconds: '20' });
  const card = taskCard(page, 'slow_compute');
  await expect(card.locator('dd.mono').first()).not.toHaveText('0');

  await header(page).getByRole('button', { name: 'Kill server' }).click();

  const wire = page.getByRole('list', { name: 'Wire log messages' });
  await expect(
    wire.getByRole('separator', { name: /fault: server worker #1 killed/ }),
  ).toBeVisible();
  // The card no longer shows `working` as if fresh: what it last heard, how long ago, and why.
  await expect(card.getByTestId('last-heard')).toContainText(
    /last heard: working, \d+(\.\d)? s ago; .*server killed/,
  );
  await expect(card.getByTestId('task-faults')).toContainText('server killed');

  await page.getByRole('tab', { name: 'Sequence' }).click();
  await expect(
    page
      .getByRole('list', { name: 'Sequence messages' })
      .getByRole('separator', { name: /fault: server worker #1 killed/ }),
  ).toBeVisible();

  await header(page).getByRole('button', { name: 'Restart server' }).click();
  await expect(card).toContainText('gave up: server answered -32602', { timeout: 15_000 });
  await expect(serverStatus(card)).toHaveText('last heard: working');
  await expect(card.getByTestId('gone-cause')).toContainText(
    'Cause: the server restarted. Worker #1 reported it',
  );
  await expect(card.getByTestId('task-faults')).toContainText('server restarted');
});
