/**
 * What the newcomer's keyboard fixes look like, at 1440, 1024 and 390 px in
 * both themes (into screenshots/widths/): the header paused by a breakpoint
 * saying which; the history after Home, the focus on Forward; a replay's
 * skip link; a replay card before its first report (no status filled).
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { parseRunFile } from '../../src/record/run-file.ts';
import { callTool, openPlayground, taskCard } from '../e2e/playground.ts';
import { detailOf } from '../e2e/task-detail-page.ts';
import { WIDTHS } from './widths-shoot.ts';

/** The window as drawn (not the full page: these are about the header and the focus). */
async function shootView(page: Page, name: string): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  await page.screenshot({ path: `screenshots/widths/${name}.png` });
}

function firstXrayAt(): number {
  const verdict = parseRunFile(readFileSync('public/runs/cancel-race.json', 'utf8'));
  if (!verdict.ok) throw new Error(verdict.error);
  return verdict.run.events.find((event) => event.kind === 'xray')!.at;
}

for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`newcomer's keyboard fixes at ${width} px (${scheme})`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openPlayground(page);
      const time = page.getByRole('banner').getByRole('group', { name: 'World time' });
      await time.locator('summary').click();
      await time.getByRole('combobox', { name: 'method' }).fill('tasks/get');
      await time.getByRole('button', { name: 'Add breakpoint' }).click();
      await page.keyboard.press('Escape');
      await callTool(page, 'slow_compute', { seconds: '2' });
      await expect(time.getByTestId('paused-at')).toBeAttached();
      await page.getByRole('banner').scrollIntoViewIfNeeded();
      await expect(time.getByTestId('paused-at')).toBeVisible();
      await shootView(page, `${width}-${scheme}-keys-1-paused-at-breakpoint`);

      await time.locator('summary').click();
      await time.getByRole('button', { name: /^Remove/ }).click();
      await page.keyboard.press('Escape');
      await time.getByRole('button', { name: 'Resume' }).click();
      const card = taskCard(page, 'slow_compute');
      await expect(card.getByRole('status', { name: 'Server status' })).toHaveText('completed', {
        timeout: 20_000,
      });
      await card.getByRole('button', { name: 'Statechart' }).click();
      const detail = detailOf(page);
      await detail.getByRole('button', { name: 'Step back' }).focus();
      await page.keyboard.press('Home');
      await expect(detail.getByRole('button', { name: 'Step forward' })).toBeFocused();
      await detail.getByRole('group', { name: 'Step through history' }).scrollIntoViewIfNeeded();
      await shootView(page, `${width}-${scheme}-keys-2-history-home`);

      await page.goto('/?run=runs/cancel-race.json');
      await expect(page.getByRole('slider', { name: 'Time in the run' })).toBeVisible();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: 'Skip to the replay' })).toBeFocused();
      await shootView(page, `${width}-${scheme}-keys-3-replay-skip-link`);

      await page.getByRole('slider', { name: 'Time in the run' }).fill(String(firstXrayAt()));
      const replayCard = page.locator('article.replay-task').first();
      await expect(replayCard.getByRole('status', { name: 'Server status' })).toHaveText(
        'no report yet',
      );
      await replayCard.scrollIntoViewIfNeeded();
      await shootView(page, `${width}-${scheme}-keys-4-replay-no-report`);
    });
  }
}
