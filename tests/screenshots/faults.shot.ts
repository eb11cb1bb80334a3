/**
 * Screenshots of the fault panel in use, at 1280x720 in both themes, for
 * reviewing by eye (`npm run screenshots`, into screenshots/).
 */
import { expect, test, type Page } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard } from '../e2e/playground.ts';

const panel = (page: Page) => page.getByRole('region', { name: 'Fault injection' });

async function open(page: Page, section: string): Promise<void> {
  const summary = panel(page).locator('summary').filter({ hasText: section });
  if (!(await summary.evaluate((el) => (el.parentElement as HTMLDetailsElement).open))) await summary.click();
}

async function set(page: Page, label: string, value: string): Promise<void> {
  const input = panel(page).getByLabel(label);
  await input.fill(value);
  await input.press('Enter');
}

/** Scrolls the element's column so the element's top is at the column's top. */
async function toTop(page: Page, locator: ReturnType<Page['locator']>): Promise<void> {
  await locator.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(100);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`fault panel screenshots (${scheme})`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.emulateMedia({ colorScheme: scheme });
    await openPlayground(page);
    const shot = (name: string) => page.screenshot({ path: `screenshots/faults-${name}-${scheme}.png` });

    await page.getByRole('switch', { name: /Also subscribe/ }).check();
    await open(page, 'Link conditions');
    await set(page, 'Latency to server (ms)', '120');
    await set(page, 'Jitter to server (ms)', '60');
    await set(page, 'Latency to client (ms)', '40');
    await set(page, 'Loss to client (%)', '15');
    await set(page, 'Duplicate to server (%)', '10');
    await callTool(page, 'slow_compute', { seconds: '20' });
    await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('working');
    await page.waitForTimeout(2500);
    await toTop(page, panel(page));
    await shot('1-conditions');

    await open(page, 'Scheduled faults');
    const form = panel(page).getByRole('form', { name: 'Arm a fault rule' });
    await form.getByLabel('When').selectOption({ label: 'a task is reported input_required' });
    await form.getByLabel('Then').selectOption({ label: 'go offline for N s' });
    await form.getByRole('button', { name: 'Arm rule' }).click();
    await panel(page).locator('summary').filter({ hasText: 'Link conditions' }).click();
    await toTop(page, page.getByRole('region', { name: 'Tasks', exact: true }));
    await toTop(page, panel(page));
    await shot('2-rule-armed');

    await callTool(page, 'confirm_delete');
    await expect(page.getByRole('status').filter({ hasText: 'Reconnecting' })).toBeVisible();
    await open(page, 'Fault log');
    await toTop(page, page.getByRole('region', { name: 'Tasks', exact: true }));
    await toTop(page, panel(page).locator('summary').filter({ hasText: 'Scheduled faults' }));
    await page.waitForTimeout(1000);
    await shot('3-offline-backoff');

    await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Kill server' }).click();
    await page.getByRole('button', { name: 'Restart server' }).click();
    await expect(taskCard(page, 'confirm_delete')).toContainText('done: gone', { timeout: 15_000 });
    await toTop(page, taskCard(page, 'confirm_delete'));
    await page.waitForTimeout(800);
    await shot('4-killed-gone');
  });
}
