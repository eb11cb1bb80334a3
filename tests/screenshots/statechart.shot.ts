/**
 * Screenshots of the live statechart and the sequence view at 1280x720, in
 * both themes, for reviewing by eye (`npm run screenshots`).
 */
import { expect, test, type Page } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard } from '../e2e/playground.ts';

async function setCondition(page: Page, label: string, value: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.press('Tab');
}

for (const scheme of ['light', 'dark'] as const) {
  test(`statechart and sequence screenshots (${scheme})`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.emulateMedia({ colorScheme: scheme });
    await openPlayground(page);
    const shot = (name: string): Promise<Buffer> => page.screenshot({ path: `screenshots/${name}-${scheme}.png` });

    // A task waiting for input: the server says input_required, the client waits for an answer.
    await callTool(page, 'deploy_service');
    const deploy = taskCard(page, 'deploy_service');
    await expect(serverStatus(deploy)).toHaveText('input_required');
    await deploy.getByRole('button', { name: 'Statechart' }).click();
    const detail = page.getByRole('region', { name: /^Statechart of / });
    // The detail opens on the task's lifecycle; the follower machine is one toggle away (and stays on).
    await detail.getByRole('button', { name: 'How this client follows it' }).click();
    await expect(detail.getByRole('img', { name: /^Statechart of the task machine/ })).toBeVisible();
    await page.waitForTimeout(1200);
    await shot('statechart-1-input');
    await page.keyboard.press('Escape');

    // A task through a dropped link: with a slow link a poll is in flight when it drops,
    // and is re-issued under a new id (C8); the task still completes.
    await page.getByText('Link conditions', { exact: true }).click();
    await setCondition(page, 'Latency to server (ms)', '1200');
    await callTool(page, 'slow_compute', { seconds: '8' });
    const slow = taskCard(page, 'slow_compute');
    await expect(serverStatus(slow)).toHaveText('working', { timeout: 10_000 });
    // A poll spends 1.2 s of every 1.7 s on its way to the server: one is in flight.
    await page.waitForTimeout(2600);
    await page.getByRole('button', { name: 'Drop connection' }).click();
    await setCondition(page, 'Latency to server (ms)', '0');
    await slow.getByRole('button', { name: 'Statechart' }).click();
    await page.waitForTimeout(700);
    await shot('statechart-2-live');
    await expect(detail.getByRole('status', { name: 'Server status in statechart' })).toHaveText('completed', { timeout: 15_000 });
    await page.waitForTimeout(400);
    await shot('statechart-3-completed');
    const back = detail.getByRole('button', { name: 'Step back' });
    for (let i = 0; i < 3; i++) await back.click();
    await page.waitForTimeout(900);
    await shot('statechart-4-history');
    await page.keyboard.press('Escape');

    // The sequence of that task, then a lossy, slow link for everything.
    const taskId = ((await slow.locator('.task-id').textContent()) ?? '').trim();
    await page.getByRole('tab', { name: 'Sequence' }).click();
    await page.getByRole('combobox', { name: 'Filter sequence by task' }).selectOption(taskId);
    const messages = page.getByRole('list', { name: 'Sequence messages' }).getByRole('listitem');
    const reissued = messages.filter({ hasText: 're-issue of' }).first();
    const expand = (await reissued.count()) > 0 ? reissued : messages.nth(1);
    await expand.getByRole('button').click();
    // The clicked message near the top, a few messages of context above it.
    await expand.evaluate((li) => {
      li.scrollIntoView({ block: 'start' });
      li.closest('.scroller')?.scrollBy(0, -110);
    });
    await page.waitForTimeout(300);
    await shot('sequence-1-task');

    await page.getByRole('combobox', { name: 'Filter sequence by task' }).selectOption('');
    await setCondition(page, 'Latency to server (ms)', '150');
    await setCondition(page, 'Jitter to server (ms)', '100');
    await setCondition(page, 'Loss to server (%)', '30');
    await setCondition(page, 'Duplicate to client (%)', '30');
    await callTool(page, 'slow_compute', { seconds: '4' });
    await page.waitForTimeout(4000);
    await shot('sequence-2-faults');
    await page.getByRole('button', { name: 'Perfect link' }).click();
  });
}
