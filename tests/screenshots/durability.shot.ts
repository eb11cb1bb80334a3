/**
 * Screenshots of durable tasks at 1280x720, in both themes: the "Keeping
 * tasks" panel, a checkpoint and a take-over on a task card, following by
 * id, the "Clear everything" confirmation, and a task an in-memory server lost.
 */
import { expect, test } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard, tasksRegion } from '../e2e/playground.ts';

for (const scheme of ['light', 'dark'] as const) {
  test(`durability screenshots (${scheme})`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.emulateMedia({ colorScheme: scheme });
    await openPlayground(page);
    const shot = (name: string): Promise<Buffer> => page.screenshot({ path: `screenshots/${name}-${scheme}.png` });

    // An in-memory server loses its task with the page.
    await callTool(page, 'slow_compute', { seconds: '30' });
    await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('working');
    await page.reload();
    await expect(taskCard(page, 'slow_compute')).toContainText('gave up: server answered -32602');
    await taskCard(page, 'slow_compute').scrollIntoViewIfNeeded();
    await shot('d1-memory-task-gone');
    await page.getByRole('button', { name: 'Clear finished tasks (1)' }).click();

    await page.getByRole('radio', { name: 'IndexedDB' }).check();
    await expect(page.getByRole('status', { name: 'Server store in use' })).toHaveText('in use: IndexedDB');
    await callTool(page, 'export_report', { stageMs: '900' });
    const card = taskCard(page, 'export_report');
    await expect(card).toContainText('2 of 6 stages done');
    await card.scrollIntoViewIfNeeded();
    await shot('d2-checkpoint');

    await page.getByRole('button', { name: 'Kill server' }).click();
    await page.getByRole('button', { name: 'Restart server' }).click();
    await expect(card).toContainText('resumed by a fresh worker', { timeout: 15_000 });
    await card.scrollIntoViewIfNeeded();
    await shot('d3-resumed');

    await page.getByLabel('Follow task by id').fill('no-such-task');
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'tasks/get failed' })).toBeVisible();
    await page.getByRole('region', { name: 'Keeping tasks' }).scrollIntoViewIfNeeded();
    await shot('d4-follow-error');

    await expect(serverStatus(card)).toHaveText('completed', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Clear everything…' }).click();
    await expect(page.getByRole('dialog', { name: 'Clear everything?' })).toBeVisible();
    await shot('d5-clear-dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Clear everything' }).click();
    await expect(tasksRegion(page).getByRole('article')).toHaveCount(0);
  });
}
