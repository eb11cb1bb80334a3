/**
 * Record and share: the Save run / Export HAR / Copy link row above the
 * messages tabs, its status line, and the notice naming a bad parameter of
 * a shared link, at 1440 and 390 px in both themes (into screenshots/record/).
 */
import { expect, test } from '@playwright/test';

for (const width of [1440, 390] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`record and share at ${width} px (${scheme})`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.goto('/?seed=77&nodes=9&rules=poll-answered:drop');
      await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();
      await page.getByRole('button', { name: 'Copy link' }).click();
      await expect(page.getByTestId('run-share-status')).toContainText('Link copied');
      const messages = page.locator('.wire-column');
      await messages.scrollIntoViewIfNeeded();
      await messages.screenshot({ path: `screenshots/record/${width}-${scheme}-share.png` });
    });
  }
}
