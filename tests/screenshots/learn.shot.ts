/**
 * Screenshots of the learning views at 1280x720 in both themes, for review
 * by eye: the interview deck (with an answer and the model answer shown),
 * the myths page, the What changed view, and the explainer beside the wire.
 */
import { expect, test } from '@playwright/test';
import { openPlayground } from '../e2e/playground.ts';

for (const scheme of ['light', 'dark'] as const) {
  test(`learn screenshots (${scheme})`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme: scheme });
    const shot = (name: string): Promise<Buffer> => page.screenshot({ path: `screenshots/learn-${name}-${scheme}.png` });

    await page.goto('/?view=interview');
    await page.getByRole('textbox', { name: 'Your answer' }).fill('It comes back at once as a task handle with a taskId; the client then polls tasks/get until the task is completed.');
    await shot('1-interview');
    await page.getByRole('button', { name: 'Show model answer' }).click();
    await expect(page.getByRole('region', { name: 'Model answer' })).toBeVisible();
    await shot('2-interview-answer');

    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Myths' }).click();
    await expect(page.getByRole('heading', { name: 'Myths' })).toBeVisible();
    await shot('3-myths');

    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'What changed' }).click();
    await expect(page.getByRole('heading', { name: 'What changed since 2025-11-25' })).toBeVisible();
    await shot('4-what-changed');

    await openPlayground(page);
    await page.getByRole('button', { name: 'What changed' }).click();
    await expect(page.getByRole('region', { name: 'Explainer' })).toBeVisible();
    await shot('5-wire-explainer');
  });
}
