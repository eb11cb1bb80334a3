/**
 * The main screens at the three widths the page is designed for (1440, 1024
 * and 390 px), in both themes, so a change can be compared by eye before and
 * after (`npm run screenshots`, into screenshots/widths/); the replay of a
 * shipped run too, and a task's detail in it.
 */
import { expect, test } from '@playwright/test';
import {
  callTool,
  openPlayground,
  runMenuButton,
  runMenuItem,
  serverStatus,
  taskCard,
} from '../e2e/playground.ts';
import { shoot, WIDTHS } from './widths-shoot.ts';

for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`main screens at ${width} px (${scheme})`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openPlayground(page);
      await expect(page.getByRole('img', { name: /^The task lifecycle/ })).toBeVisible();
      await shoot(page, `${width}-${scheme}-1-idle`);

      await callTool(page, 'deploy_service');
      const deploy = taskCard(page, 'deploy_service');
      await expect(serverStatus(deploy)).toHaveText('input_required');
      await expect(page.getByRole('form', { name: /Input request approve_rollout/ })).toBeVisible();
      await shoot(page, `${width}-${scheme}-2-input`);

      await deploy.getByRole('button', { name: 'Statechart' }).click();
      const detail = page.getByRole('region', { name: /^Statechart of / });
      await expect(detail.getByRole('img').first()).toBeVisible();
      await shoot(page, `${width}-${scheme}-3-detail`);
      await page.keyboard.press('Escape');

      await page.goto('/?view=spec&rule=T12');
      await expect(page.getByRole('region', { name: 'Rule T12', exact: true })).toBeFocused();
      await shoot(page, `${width}-${scheme}-5-rules`);

      await page.goto('/?scenario=happy-path');
      await expect(page.getByRole('status', { name: 'Scenario run' })).toBeVisible();
      await shoot(page, `${width}-${scheme}-4-scenario`);
    });
  }
}

for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`the lost-handle scenario played at ${width} px (${scheme})`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.goto('/?scenario=lost-handle&speed=max');
      await expect(page.getByRole('status', { name: 'Scenario run' })).toHaveText(/^Passed/, {
        timeout: 60_000,
      });
      await shoot(page, `${width}-${scheme}-5-lost-handle`);
    });
  }
}

for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`the header's time control, paused at 0.25x, at ${width} px (${scheme})`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openPlayground(page);
      const time = page.getByRole('banner').getByRole('group', { name: 'World time' });
      await time.getByLabel('Speed of the world').selectOption('0.25');
      await expect(time.getByRole('status')).toHaveText('0.25x');
      await page.screenshot({
        path: `screenshots/widths/${width}-${scheme}-6-time-slow.png`,
        clip: { x: 0, y: 0, width, height: 160 },
      });
      await time.getByRole('button', { name: 'Pause' }).click();
      await expect(time.getByRole('status')).toHaveText('Paused');
      await time.locator('summary').click();
      await time.getByLabel('Pause when a tasks/cancel is in flight').check();
      await expect(time.locator('summary')).toHaveText(/Breakpoints\s*\(1\)/);
      await shoot(page, `${width}-${scheme}-6-time-paused`);
    });
  }
}

for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`the header's Run menu, open, at ${width} px (${scheme})`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openPlayground(page);
      await runMenuButton(page).click();
      await expect(runMenuItem(page, 'Save run')).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(runMenuItem(page, 'Export HAR')).toBeFocused();
      await page.screenshot({
        path: `screenshots/widths/${width}-${scheme}-8-run-menu.png`,
        clip: { x: 0, y: 0, width, height: 400 },
      });
    });
  }
}

for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`the replay of a shipped run at ${width} px (${scheme})`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.goto('/?run=runs/lost-handle.json');
      const bar = page.getByRole('region', { name: 'Replay' });
      await expect(bar.getByTestId('replay-scenario')).toBeVisible({ timeout: 30_000 });
      // Halfway through: rows in the log, a task on the left.
      const slider = page.getByRole('slider', { name: 'Time in the run' });
      await slider.fill(String(Math.round(Number(await slider.getAttribute('max')) / 2)));
      await expect(bar.getByRole('status')).not.toContainText('0.00 s /');
      await shoot(page, `${width}-${scheme}-7-replay`);
      // A task's full detail at that moment: its history up to the slider's time, the timeline.
      await page
        .locator('article.replay-task')
        .first()
        .getByRole('button', { name: /^Statechart/ })
        .click();
      await expect(page.getByTestId('history-position')).toContainText('(live)');
      await shoot(page, `${width}-${scheme}-7-replay-detail`);
    });
  }
}
