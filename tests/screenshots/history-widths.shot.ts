/**
 * The task detail's history and a card whose client gave up because the
 * TTL passed, at 1440, 1024 and 390 px in both themes (into
 * screenshots/widths/, beside the main screens).
 */
import { expect, test } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard } from '../e2e/playground.ts';
import { shoot, WIDTHS } from './widths-shoot.ts';
import { openStatechart } from '../e2e/task-detail-page.ts';


for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`history and the TTL-passed card at ${width} px (${scheme})`, async ({ page }) => {
      test.setTimeout(150_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openPlayground(page);

      await callTool(page, 'slow_compute', { seconds: '3' });
      await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('completed', {
        timeout: 30_000,
      });
      const { detail } = await openStatechart(page, 'slow_compute');
      const list = detail.getByRole('list', { name: 'Recorded steps, newest first' });
      await list.locator('button[aria-current="step"]').focus();
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
      await shoot(page, `${width}-${scheme}-6-history-follower`);
      await detail.getByRole('button', { name: 'How this client follows it' }).click();
      await expect(detail.locator('[data-views^="history"]')).toBeVisible();
      await shoot(page, `${width}-${scheme}-7-history-lifecycle`);
      await page.keyboard.press('Escape');

      await callTool(page, 'flash_sale_quote');
      const card = taskCard(page, 'flash_sale_quote');
      // Killed at once: the 4 s TTL must pass while the server is down, not before.
  await expect(card).toBeVisible();
      await page.getByRole('banner').getByRole('button', { name: 'Kill server' }).click();
      await expect(card).toContainText('gave up: TTL passed', { timeout: 30_000 });
      await card.scrollIntoViewIfNeeded();
      await shoot(page, `${width}-${scheme}-8-ttl-passed-card`);
    });
  }
}
