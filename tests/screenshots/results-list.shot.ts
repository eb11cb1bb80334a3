/**
 * The Results list after a burst of calls, at the three design widths in both
 * themes: the newest calls drawn, "N earlier calls are not drawn" and its
 * button under them (screenshots/widths/<width>-<scheme>-9-results.png), and
 * the list's top with its count (…-9-results-top.png).
 */
import { expect, test } from '@playwright/test';
import { openPlayground, resultsRegion } from '../e2e/playground.ts';
import { WIDTHS } from './widths-shoot.ts';

for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`the Results list after 24 calls at ${width} px (${scheme})`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openPlayground(page);
      // The field's label also says "required" (hidden from its name): found by its name.
      await page.getByRole('button', { name: /^greet\b/ }).click();
      const form = page.getByRole('form', { name: 'greet' });
      await form.getByRole('textbox', { name: 'name', exact: true }).fill('Ada');
      await form.getByRole('button', { name: 'Call greet' }).evaluate((button: HTMLButtonElement) => {
        for (let i = 0; i < 24; i++) button.click();
      });
      const results = resultsRegion(page);
      await expect(results).toContainText('4 earlier calls are not drawn');
      await expect(results.getByText('Waiting for the answer…')).toHaveCount(0);
      // The list's end, where the note and its button are.
      const button = results.getByRole('button', { name: 'Show 4 earlier' });
      // The screen as a reader sees it there (a picture of the whole region, taller than the
      // window inside a scrolled column, comes out with the page drawn over it), then its top.
      await button.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `screenshots/widths/${width}-${scheme}-9-results.png` });
      await results.getByRole('heading', { name: 'Results' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `screenshots/widths/${width}-${scheme}-9-results-top.png` });
    });
  }
}
