/**
 * What every `*.shot.ts` at the page's three design widths shares: the widths,
 * and a full-page picture into screenshots/widths/ once animations settle.
 */
import type { Page } from '@playwright/test';

/** The widths the page is designed for (desktop, small laptop, phone). */
export const WIDTHS = [1440, 1024, 390] as const;

/** A full-page screenshot as screenshots/widths/<name>.png, after one animation frame. */
export async function shoot(page: Page, name: string): Promise<void> {
  // Animations (a card appearing, a chart transition) settle before the picture.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  await page.screenshot({ path: `screenshots/widths/${name}.png`, fullPage: true });
}
