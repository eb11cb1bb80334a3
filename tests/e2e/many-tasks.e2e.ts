/**
 * Many tasks at once: the task list draws the newest cards and those near
 * its view (each card is hundreds of live elements); every other task holds
 * its place with a placeholder that becomes its card as it is scrolled near.
 * A task that asks for input is drawn wherever it is, so its form stays in
 * reach (T14).
 */
import { expect, test } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard, tasksRegion } from './playground.ts';

test('T14: 45 tasks keep 45 places, far ones as placeholders drawn when scrolled near; an older task asking for input is drawn anyway', async ({
  page,
}) => {
  test.setTimeout(90_000); // 45 tasks polled at once: slow on a shared machine
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  await callTool(page, 'confirm_delete', { filename: 'old.txt' });
  await expect(serverStatus(taskCard(page, 'confirm_delete'))).toHaveText('input_required');

  await callTool(page, 'slow_compute', { seconds: '60' });
  // The other 43 in one go: clicked in the page, as a learner mashing the button would.
  await page
    .getByRole('form', { name: 'slow_compute' })
    .getByRole('button', { name: 'Call slow_compute' })
    .evaluate((button: HTMLButtonElement) => {
      for (let i = 0; i < 43; i++) button.click();
    });

  const region = tasksRegion(page);
  await expect(region.getByText('45', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(region.getByRole('article')).toHaveCount(45);
  const placeholders = region.getByRole('article', { name: /^Not drawn until scrolled near/ });
  await expect(placeholders.first()).toBeAttached();
  const farBefore = await placeholders.count();
  expect(farBefore).toBeGreaterThan(0);
  await expect(
    region.getByText(/\d+ of 45 cards are placeholders until scrolled near/),
  ).toBeVisible();
  // The oldest task is far down the list, and drawn because it asks for input.
  await expect(page.getByRole('form', { name: /Input request confirm/ })).toBeAttached();

  // Scrolled to the bottom, the last slow_compute places are cards, and the top ones placeholders.
  const last = region.locator('.slot').nth(43);
  await last.scrollIntoViewIfNeeded();
  await expect(last.getByRole('article', { name: /^slow_compute task/ })).toBeVisible();
  await expect(serverStatus(last.getByRole('article'))).toHaveText('working');
  await expect(region.getByRole('article')).toHaveCount(45);
});
