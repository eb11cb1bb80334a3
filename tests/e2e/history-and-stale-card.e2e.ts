/**
 * The task detail's history, stepped with every key it names on screen
 * (focus always on the selected step), and a card whose client gave up
 * because the TTL passed: it says what it last heard, never a fresh
 * `working` (T13).
 */
import { expect, test, type Locator } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard } from './playground.ts';
import { openStatechart } from './task-detail-page.ts';

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
});

/** The 1-based number of the step "Step N of M" shows, and M. */
async function position(detail: Locator): Promise<[number, number]> {
  const text = (await detail.getByTestId('history-position').textContent()) ?? '';
  const match = /Step (\d+) of (\d+)/.exec(text);
  return match ? [Number(match[1]), Number(match[2])] : [0, 0];
}

test('T12: Up, Down, Left, Right, Home and End step the history; focus stays on the selected step', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await callTool(page, 'slow_compute', { seconds: '2' });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('completed', { timeout: 20_000 });
  const { detail } = await openStatechart(page, 'slow_compute');
  await expect(detail.getByTestId('history-keys')).toHaveText(
    /Keys: ←↓ older · →↑ newer · Home oldest · End live/,
  );
  const list = detail.getByRole('list', { name: 'Recorded steps, newest first' });
  const selected = list.locator('button[aria-current="step"]');
  // The newest step leads with what the client saw: the status and the answer that brought it.
  await expect(selected).toContainText('completed');
  await expect(selected).toContainText('tasks/get answered completed');
  await expect(selected).toContainText('client: stopped: saw completed');
  const [, total] = await position(detail);
  expect(total).toBeGreaterThan(3);

  // Tab into the list lands on the selected step (the only one in the tab order).
  await expect(list.locator('button[tabindex="0"]')).toHaveCount(1);
  await selected.focus();
  const focusedIsSelected = () =>
    list.evaluate(() => document.activeElement?.getAttribute('aria-current') === 'step');

  const press = async (key: string, expected: number) => {
    await page.keyboard.press(key);
    await expect.poll(async () => (await position(detail))[0], { message: key }).toBe(expected);
    await expect.poll(focusedIsSelected, { message: `focus after ${key}` }).toBe(true);
  };
  await press('ArrowDown', total - 1);
  await press('ArrowDown', total - 2);
  await press('ArrowUp', total - 1);
  await press('ArrowLeft', total - 2);
  await press('ArrowRight', total - 1);
  await press('Home', 1);
  await expect(detail.getByTestId('history-event')).toContainText('CreateTaskResult');
  await press('ArrowUp', 2);
  await press('End', total);
  await expect(detail.getByTestId('history-position')).toContainText('(live)');

  // Status changes only: every listed step brought a status other than the row listed below it.
  await detail.getByLabel('Status changes only').check();
  const statuses = await list
    .getByRole('button')
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-step-status')));
  expect(statuses).toEqual(['completed', 'working']);
});

test('T13: a task whose TTL passed while the server was down says what it last heard, not a fresh working', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const header = page.getByRole('banner');
  await callTool(page, 'flash_sale_quote');
  const card = taskCard(page, 'flash_sale_quote');
  // Killed at once: the 4 s TTL must pass while the server is down, not before.
  await expect(card).toBeVisible();
  // With the server down no tasks/get can be asked, and past the TTL the card still says what it
  // last heard, never a fresh working.
  await header.getByRole('button', { name: 'Kill server' }).click();
  await expect(card).toContainText(/TTL passed ([2-9]|\d{2,})(\.\d)?s ago/, { timeout: 30_000 });
  await expect(card.getByTestId('last-heard')).toContainText(/last heard: working, .* ago/);
  // Back up, the client gives up (T13): on the TTL, or on the -32602 of the restarted in-memory
  // server, whichever its next step meets first; the badge keeps what it last heard.
  await header.getByRole('button', { name: 'Restart server' }).click();
  await expect(card).toContainText(/gave up: (TTL passed|server answered -32602)/, {
    timeout: 30_000,
  });
  await expect(serverStatus(card)).toHaveText('last heard: working');
  await expect(card.getByTestId('last-heard')).toContainText(/last heard: working, .* ago/);
  // Neither the badge nor the card's edge is coloured as a fresh status.
  await expect(serverStatus(card).locator('.badge')).toHaveClass(/\bstale\b/);
  await expect(card).toHaveClass(/\bstatus-stale\b/);

  // T6: giving up on the working it last heard is no status change. "Status changes only" lists the
  // creation alone, while the line above the list still says where the client is now: it gave up.
  const { detail } = await openStatechart(page, 'flash_sale_quote');
  const list = detail.getByRole('list', { name: 'Recorded steps, newest first' });
  await expect(detail.getByTestId('history-position')).toContainText('(live)');
  await expect(detail.getByTestId('history-event')).toContainText(
    /TTL passed: the client gives up|answered -32602/,
  );
  await detail.getByLabel('Status changes only').check();
  await expect(list.getByRole('button')).toHaveCount(1);
  await expect(list.getByRole('button')).toContainText('CreateTaskResult: the task as created');
  await expect(list.locator('button[aria-current="step"]')).toHaveCount(1);
  await expect(detail.getByTestId('history-position')).toContainText(
    'Step 1 of 1 (live: a newer step, same status)',
  );
  await expect(detail.getByTestId('history-event')).toContainText(
    /TTL passed: the client gives up|answered -32602/,
  );
  // Back from live reaches the listed creation step.
  await detail.getByRole('button', { name: 'Step back' }).click();
  await expect(detail.getByTestId('history-position')).toHaveText(/Step 1 of 1:/);
  await expect(detail.getByTestId('history-event')).toContainText('CreateTaskResult');
});

test('T6, T13: a task that completes goes from working straight to completed: no frame of its card says "last heard"', async ({
  page,
}) => {
  await callTool(page, 'slow_compute', { seconds: '2' });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('working');
  // Every painted frame's badge, read in the page (a poll from the test would miss a single frame).
  const taskId = ((await card.locator('.task-id').textContent()) ?? '').trim();
  await page.evaluate((taskId) => {
    const seen: string[] = [];
    (window as unknown as { badgesSeen: string[] }).badgesSeen = seen;
    const read = () => {
      const card = [...document.querySelectorAll('article')].find((article) =>
        article.querySelector('.task-id')?.textContent?.includes(taskId),
      );
      const badge = card?.querySelector('[role="status"][aria-label="Server status"]');
      const status = badge?.textContent?.trim() ?? '';
      // The whole card: the badge, the "last heard" line and the chart's legend alike.
      const text = `${status} | ${card?.textContent ?? ''}`;
      if (text !== seen.at(-1)) seen.push(text);
      if (!status.includes('completed')) requestAnimationFrame(read);
    };
    requestAnimationFrame(read);
  }, taskId);
  await expect(serverStatus(card)).toHaveText('completed', { timeout: 20_000 });
  const seen = await page.evaluate(
    () => (window as unknown as { badgesSeen: string[] }).badgesSeen,
  );
  expect(seen.at(-1)).toContain('completed');
  expect(seen.filter((text) => /last heard|stopped following/.test(text))).toEqual([]);
});
