/**
 * Many tasks at once: every task has its slot in the list, but a card (hundreds
 * of live elements) is drawn only near the visible part, so scrolling draws
 * the others; a task that asks for input is drawn wherever it is, so its form
 * stays in reach (T14).
 */
import { expect, test } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard, tasksRegion } from './playground.ts';

test('T14: 45 tasks: only cards near view are drawn, scrolling draws the rest; an older task asking for input is drawn anyway', async ({
  page,
}) => {
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

  const cards = tasksRegion(page).getByRole('article');
  const slots = tasksRegion(page).locator('.slot');
  await expect(tasksRegion(page).getByText('45', { exact: true })).toBeVisible();
  await expect(slots).toHaveCount(45);
  // The newest cards are drawn, the oldest slow_compute ones (far below) are not...
  await expect(slots.first().getByRole('article')).toBeVisible();
  await expect(slots.nth(43).getByRole('article')).toHaveCount(0);
  expect(await cards.count()).toBeLessThan(45);
  // ...but the oldest task, asking for input, is: its form is in reach.
  await expect(page.getByRole('form', { name: /Input request confirm/ })).toBeAttached();

  // Scrolled to the end, the oldest slow_compute card is drawn, and the newest no longer are.
  await slots.nth(43).scrollIntoViewIfNeeded();
  await expect(slots.nth(43).getByRole('article')).toBeVisible();
  await expect(slots.first().getByRole('article')).toHaveCount(0);
});
