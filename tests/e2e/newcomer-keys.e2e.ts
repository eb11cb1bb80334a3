/**
 * What a newcomer tripped on with the keyboard, on the built page: the task
 * history's Home then End (the buttons that disable themselves hand the
 * focus on instead of dropping it to <body>).
 */
import { expect, test, type Page } from '@playwright/test';
import { callTool, openPlayground, taskCard } from './playground.ts';
import { detailOf } from './task-detail-page.ts';

const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el === document.body ? '<body>' : (el?.getAttribute('aria-label') ?? el?.textContent);
  });

test('task history: Home, then End, with the focus on Back: the focus stays in the group and End goes live', async ({
  page,
}) => {
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '2' });
  const card = taskCard(page, 'slow_compute');
  await expect(card.getByRole('status', { name: 'Server status' })).toHaveText('completed', {
    timeout: 20_000,
  });
  await card.getByRole('button', { name: 'Statechart' }).click();
  const detail = detailOf(page);
  const position = detail.getByTestId('history-position');
  await expect(position).toContainText('(live)');
  const buttons = detail.getByRole('group', { name: 'Step through history' });
  await buttons.getByRole('button', { name: 'Step back' }).focus();

  // Home disables « and Back: the focus moves to Forward, the still-enabled neighbour.
  await page.keyboard.press('Home');
  await expect(position).toContainText(/Step 1 of \d+:/);
  await expect(buttons.getByRole('button', { name: 'Step back' })).toBeDisabled();
  await expect.poll(() => focusedName(page)).toBe('Step forward');

  // End still lands: live again, Forward disabled in turn hands the focus back to Back.
  await page.keyboard.press('End');
  await expect(position).toContainText('(live)');
  await expect.poll(() => focusedName(page)).toBe('Step back');
});
