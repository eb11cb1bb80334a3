/**
 * Breaking the link on purpose: a task outlives its connection (M3, C8),
 * and a restarted in-memory server no longer knows it (T13).
 */
import { expect, test } from '@playwright/test';
import { callTool, drawn, openPlayground, readWire, serverStatus, taskCard } from './playground.ts';

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
});

test('M3, C8: dropping the connection mid-task loses nothing; polling resumes by taskId', async ({
  page,
}) => {
  await callTool(page, 'slow_compute', { seconds: '3' });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('working');

  await page.getByRole('button', { name: 'Drop connection' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();
  await expect(serverStatus(card)).toHaveText('completed');
  await expect(card).toContainText('Computed in 3 s');
});

test('T13: after the server restarts with empty memory, the task is gone (-32602)', async ({
  page,
}) => {
  await callTool(page, 'slow_compute', { seconds: '30' });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('working');

  await page.getByRole('button', { name: 'Kill server' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Reconnecting' })).toBeVisible();
  await page.getByRole('button', { name: 'Restart server' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'worker #2' })).toBeVisible();

  await expect(card).toContainText('gave up: server answered -32602');
  // Not its last status, as if it were still running: the server no longer knows it.
  await expect(serverStatus(card)).toHaveText('last heard: working');
  await expect(card).toContainText('no longer knows this task');
  await readWire(
    page,
    drawn({ direction: 'in', method: 'tasks/get', gist: 'error -32602' }),
    'tasks/get answered -32602',
  );
});
