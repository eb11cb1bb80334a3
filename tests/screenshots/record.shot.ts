/**
 * Record and share: the header's Run menu open (Save run, Export HAR, Copy
 * link, Open a run…), then the note at the foot of the screen saying what
 * Copy link did, beside the notice naming a bad parameter of a shared
 * link, at 1440 and 390 px in both themes (into screenshots/record/).
 */
import { expect, test } from '@playwright/test';
import { runMenuButton, runMenuItem } from '../e2e/playground.ts';

for (const width of [1440, 390] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`record and share at ${width} px (${scheme})`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.goto('/?seed=77&nodes=9&rules=poll-answered:drop');
      await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();
      await runMenuButton(page).click();
      await expect(runMenuItem(page, 'Save run')).toBeFocused();
      await page.screenshot({
        path: `screenshots/record/${width}-${scheme}-menu.png`,
        clip: { x: 0, y: 0, width, height: 360 },
      });
      await runMenuItem(page, 'Copy link').click();
      await expect(page.getByTestId('run-share-status')).toContainText('Link copied');
      await page.screenshot({ path: `screenshots/record/${width}-${scheme}-share.png` });
    });
  }
}
