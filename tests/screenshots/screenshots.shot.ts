/**
 * Screenshots of the page at 1280x720, in both themes, for reviewing the
 * design by eye: `npm run screenshots` writes them to screenshots/
 * (git-ignored). Not part of `npm test`: a picture asserts nothing.
 */
import { expect, test } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard, wireRows } from '../e2e/playground.ts';

for (const scheme of ['light', 'dark'] as const) {
  test(`screenshots (${scheme})`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme: scheme });
    await openPlayground(page);
    const shot = (name: string): Promise<Buffer> => page.screenshot({ path: `screenshots/${name}-${scheme}.png` });
    await shot('1-idle');

    await callTool(page, 'slow_compute', { seconds: '20' });
    await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('working');
    await page.waitForTimeout(1800);
    await shot('2-task-running');

    await callTool(page, 'deploy_service');
    await expect(page.getByRole('form', { name: /Input request approve_rollout/ })).toBeVisible();
    await page.waitForTimeout(600);
    await shot('3-input-form');

    await page.getByRole('switch', { name: /Declare io\.modelcontextprotocol\/tasks/ }).uncheck();
    await callTool(page, 'failing_job');
    await expect(page.getByRole('region', { name: 'Results' })).toContainText('-32021');
    const created = wireRows(page).filter({ hasText: 'task working' }).first();
    await created.getByRole('button').click();
    await page.getByLabel('Filter wire log').fill('tools/call');
    await shot('4-wire-expanded');
    await page.getByLabel('Filter wire log').fill('');
    await taskCard(page, 'slow_compute').getByRole('button', { name: 'Cancel task' }).click();
    await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('cancelled');
    await shot('5-cancelled');
  });
}

