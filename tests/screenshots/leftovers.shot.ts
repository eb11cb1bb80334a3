/**
 * The screens the newcomers' leftovers changed, at 1440, 1024 and 390 px in
 * both themes (into screenshots/widths/): the header paused at a breakpoint
 * (the link's words whole); the fault panel's log count on a clean start and
 * the Connect fold open, its arrow and fields (one field look in the dark);
 * the wire log's whole taskIds; on a phone, the card "Call slow_compute now"
 * made, holding the focus; the Myths page after Back, focus on its link.
 */
import { expect, test, type Page } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard } from '../e2e/playground.ts';
import { WIDTHS } from './widths-shoot.ts';

/** The window as drawn: these are about what is in view (the header, the focus). */
async function shootView(page: Page, name: string): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  await page.screenshot({ path: `screenshots/widths/${name}.png` });
}

for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`leftovers at ${width} px (${scheme})`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openPlayground(page);
      const time = page.getByRole('banner').getByRole('group', { name: 'World time' });

      // The left column: Connect open (its arrow, its fields), the fault log's count.
      await page.locator('summary').filter({ hasText: 'Connect to your own server' }).click();
      await page.locator('summary').filter({ hasText: 'Fault log' }).click();
      await time.locator('summary').click();
      await expect(time.getByRole('combobox', { name: 'method' })).toBeVisible();
      await shootView(page, `${width}-${scheme}-leftovers-1-connect-faults-breakpoints`);
      await time.getByRole('combobox', { name: 'method' }).fill('tasks/get');
      await time.getByRole('button', { name: 'Add breakpoint' }).click();
      await page.keyboard.press('Escape');

      // Paused at the breakpoint by the first poll: the header.
      if (width === 390) {
        const now = page.getByRole('button', { name: 'Call slow_compute now' });
        await now.focus();
        await page.keyboard.press('Enter');
        await expect(taskCard(page, 'slow_compute')).toBeFocused();
        await shootView(page, `${width}-${scheme}-leftovers-2-call-now-focus-on-card`);
      } else await callTool(page, 'slow_compute', { seconds: '2' });
      await expect(time.getByTestId('paused-at')).toBeAttached();
      await page.evaluate(() => window.scrollTo(0, 0));
      await shootView(page, `${width}-${scheme}-leftovers-3-paused-at-breakpoint`);

      // Resumed and done: the wire log's rows, taskIds whole where the pane has room.
      await time.locator('summary').click();
      await time.getByRole('button', { name: /^Remove/ }).click();
      await page.keyboard.press('Escape');
      await time.getByRole('button', { name: 'Resume' }).click();
      await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('completed', {
        timeout: 20_000,
      });
      const wire = page.getByRole('region', { name: 'Wire log' });
      await wire.scrollIntoViewIfNeeded();
      await wire.screenshot({ path: `screenshots/widths/${width}-${scheme}-leftovers-4-wire.png` });

      // Myths: Run the experiment, then Back: the focus on that link.
      await page.goto('/?view=myths');
      const link = page
        .getByRole('list', { name: 'Wrong statements' })
        .getByRole('listitem')
        .nth(5)
        .getByRole('link', { name: /^Run the experiment/ });
      await link.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('status', { name: 'Scenario run' })).toBeVisible();
      await page.goBack();
      await expect(link).toBeFocused();
      await shootView(page, `${width}-${scheme}-leftovers-5-myths-back`);
    });
  }
}
