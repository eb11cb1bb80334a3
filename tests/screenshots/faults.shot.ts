/**
 * Faults where they act, at 1440, 1024 and 390 px in both themes: a killed
 * server as a row in the wire log and on the card it hit ("last heard"),
 * then the restart's -32602 with its cause (into screenshots/widths/).
 */
import { expect, test } from '@playwright/test';
import { callTool, openPlayground } from '../e2e/playground.ts';
import { shoot, WIDTHS } from './widths-shoot.ts';


for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`faults at ${width} px (${scheme})`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openPlayground(page);
      await callTool(page, 'slow_compute', { seconds: '30' });
      await expect(page.getByText(/computing: [1-9]/).first()).toBeAttached();
      await page.getByRole('banner').getByRole('button', { name: 'Kill server' }).click();
      await expect(
        page.getByRole('separator', { name: /fault: server worker #1 killed/ }),
      ).toBeVisible();
      await shoot(page, `${width}-${scheme}-5-killed`);

      await page.getByRole('banner').getByRole('button', { name: 'Restart server' }).click();
      await expect(page.getByText(/error -32602/).first()).toBeAttached({ timeout: 15_000 });
      await shoot(page, `${width}-${scheme}-6-gone`);
      await page.getByRole('tab', { name: 'Sequence' }).click();
      await shoot(page, `${width}-${scheme}-7-sequence`);
    });
  }
}
