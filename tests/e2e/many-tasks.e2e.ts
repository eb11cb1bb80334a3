/**
 * Many tasks at once: the task list draws the newest 40 cards (each card is
 * hundreds of live elements), offers the rest on request, and always draws a
 * task that asks for input, however old, so its form stays in reach (T14).
 */
import { expect, test } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard, tasksRegion } from './playground.ts';

test('T14: 45 tasks draw 40 cards and "Show more"; an older task asking for input is drawn anyway', async ({
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
  await expect(tasksRegion(page).getByText('45', { exact: true })).toBeVisible();
  // 40 newest slow_compute cards, and the oldest task because it asks for input.
  await expect(cards).toHaveCount(41);
  const form = page.getByRole('form', { name: /Input request confirm/ });
  await expect(form).toBeVisible();

  await tasksRegion(page)
    .getByRole('button', { name: /Show 4 more \(4 older tasks not drawn\)/ })
    .click();
  await expect(cards).toHaveCount(45);
  await expect(tasksRegion(page).getByRole('button', { name: /Show \d+ more/ })).toHaveCount(0);
});
