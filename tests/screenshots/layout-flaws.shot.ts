/**
 * Four places whose layout once failed a reader, at 1440, 1024 and 390 px in
 * both themes (into screenshots/widths/): the wire log's id column once
 * request ids pass 1000, the header's protocol line, the Myths grid, and the
 * task cards' cells on a phone.
 */
import { expect, test } from '@playwright/test';
import { callTool, mashCall, openPlayground, readWire, serverStatus, taskCard, tasksRegion } from '../e2e/playground.ts';
import { shoot, WIDTHS } from './widths-shoot.ts';


for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`wire ids past 1000, the header and the task cards at ${width} px (${scheme})`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openPlayground(page);
      await page.screenshot({
        path: `screenshots/widths/${width}-${scheme}-9-header.png`,
        clip: { x: 0, y: 0, width, height: width === 390 ? 300 : 160 },
      });
      // Polled every 100 ms, twenty tasks bring the request ids past 1000 in seconds.
      await callTool(page, 'slow_compute', { seconds: '120', pollIntervalMs: '100' });
      await mashCall(page, 19);
      await readWire(
        page,
        (rows) => rows.some((row) => Number(row.id.replace(/^#/, '')) >= 1000),
        'a request id past 1000',
        { timeout: 120_000 },
      );
      const card = tasksRegion(page).getByRole('article').first();
      await expect(card).toBeVisible();
      await shoot(page, `${width}-${scheme}-9-ids-and-cards`);
      // The card alone: a phone's full page is too tall to read its cells in.
      await card.screenshot({ path: `screenshots/widths/${width}-${scheme}-9-card.png` });
      await page.getByRole('list', { name: 'Wire log messages' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `screenshots/widths/${width}-${scheme}-9-wire.png` });
      // A card asking for input, its form under the facts.
      await callTool(page, 'confirm_delete', { filename: 'old.txt' });
      const asking = taskCard(page, 'confirm_delete');
      await expect(serverStatus(asking)).toHaveText('input_required');
      await asking.screenshot({ path: `screenshots/widths/${width}-${scheme}-9-card-input.png` });
    });
  }
}

for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`the Myths grid at ${width} px (${scheme})`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.goto('/?view=myths');
      await expect(page.getByRole('heading', { name: 'Myths' })).toBeVisible();
      await shoot(page, `${width}-${scheme}-9-myths`);
      await page.screenshot({ path: `screenshots/widths/${width}-${scheme}-9-myths-top.png` });
      // The end of the list, where short columns would leave a hole (the view scrolls, not the page).
      await page.getByRole('listitem').last().scrollIntoViewIfNeeded();
      await page.screenshot({ path: `screenshots/widths/${width}-${scheme}-9-myths-end.png` });
    });
  }
}
