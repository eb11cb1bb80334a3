/**
 * The main screens at the three widths the page is designed for (1440, 1024
 * and 390 px), in both themes, so a change can be compared by eye before and
 * after (`npm run screenshots`, into screenshots/widths/); the replay of a
 * shipped run too, and a task's detail in it.
 */
import { expect, test } from '@playwright/test';
import {
  callTool,
  counted,
  openPlayground,
  readWire,
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
        clip: { x: 0, y: 0, width, height: width === 390 ? 300 : 160 },
      });
      await time.getByRole('button', { name: 'Pause' }).click();
      await expect(time.getByRole('status')).toHaveText('Paused');
      await time.locator('summary').click();
      await time.getByLabel('Pause when a tasks/cancel is in flight').check();
      await expect(time.locator('summary')).toHaveText(/Breakpoints\s*\(1\)/);
      await shoot(page, `${width}-${scheme}-6-time-paused`);
      await page.keyboard.press('Escape');
      // Scrolled down while paused (the header out of view on a phone): the notice at the foot.
      if (width === 390) {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
        await expect(page.getByRole('region', { name: 'World paused' })).toBeInViewport();
        await page.screenshot({ path: `screenshots/widths/${width}-${scheme}-6-time-notice.png` });
        await page.evaluate(() => window.scrollTo(0, 0));
      }
      // Resumed at 1x: the world stays behind wall time, and the header says by how much.
      await time.getByLabel('Speed of the world').selectOption('1');
      await time.getByRole('button', { name: 'Resume' }).click();
      await expect(time.getByTestId('world-lag')).toHaveText(/behind wall$/);
      await page.screenshot({
        path: `screenshots/widths/${width}-${scheme}-6-time-resumed.png`,
        clip: { x: 0, y: 0, width, height: width === 390 ? 300 : 160 },
      });
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

for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`a task's detail after a drop and a restart, and the header after a restart, at ${width} px (${scheme})`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openPlayground(page);
      const header = page.getByRole('banner');
      const link = header.locator('.bar [role="status"]').first();
      await callTool(page, 'slow_compute', { seconds: '40' });
      const card = taskCard(page, 'slow_compute');
      await expect(serverStatus(card)).toHaveText('working');
      const before = (await readWire(page, () => true)).length;
      await header.getByRole('button', { name: 'Drop connection' }).click();
      await readWire(
        page,
        counted((row) => row.direction === 'in' && row.method === 'tasks/get', 2, before),
      );
      await header.getByRole('button', { name: 'Restart server' }).click();
      await expect(card).toContainText('gave up: server answered -32602', { timeout: 20_000 });

      // The detail: Close at the top, the fault marks (a merged one focused, its tooltip shown),
      // "Status changes only" listing the creation alone.
      await card.getByRole('button', { name: 'Statechart' }).click();
      const detail = page.getByRole('region', { name: /^Statechart of / });
      await expect(detail.getByRole('img').first()).toBeVisible();
      await detail.getByLabel('Status changes only').check();
      const merged = detail.locator('[data-testid="fault-mark"]:not([data-faults="1"])').first();
      await merged.focus();
      await expect(detail.getByTestId('fault-tip')).toBeVisible();
      await shoot(page, `${width}-${scheme}-8-detail-faults`);
      if (width === 390) {
        await detail.getByRole('region', { name: /^Timeline of task/ }).scrollIntoViewIfNeeded();
        await page.screenshot({ path: `screenshots/widths/${width}-${scheme}-8-detail-scrolled.png` });
      }
      await page.keyboard.press('Escape');

      // The header after a restart while the client still backs off (the world paused to hold it).
      await callTool(page, 'slow_compute', { seconds: '40' });
      await header.getByRole('button', { name: 'Kill server' }).click();
      await expect(link).toContainText(/attempt ([4-9]|\d\d) in/, { timeout: 30_000 });
      const time = header.getByRole('group', { name: 'World time' });
      await time.getByRole('button', { name: 'Pause' }).click();
      await header.getByRole('button', { name: 'Restart server' }).click();
      await expect(page.getByTestId('link-detail')).toHaveText('server up; retry after backoff');
      await page.screenshot({
        path: `screenshots/widths/${width}-${scheme}-8-header-restarted.png`,
        clip: { x: 0, y: 0, width, height: width === 390 ? 340 : 200 },
      });
    });
  }
}
