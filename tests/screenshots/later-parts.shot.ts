/**
 * The parts the first screen does not carry (the task card, the Results list of calls,
 * `later-parts.ts`) while their code is slow to come, and once it failed, at the three design
 * widths in both themes (screenshots/widths/<width>-<scheme>-10-later-loading.png,
 * …-10-later-failed.png), and the task detail and the Breakpoints form whose code failed
 * (…-10-later-detail-failed.png, …-10-later-breakpoints-failed.png):
 * the notes sit where the cards and calls will be, and the page around them is drawn as ever.
 */
import { expect, test, type Page } from '@playwright/test';
import { callTool, openPlayground } from '../e2e/playground.ts';
import { shoot, WIDTHS } from './widths-shoot.ts';

const LATER_CHUNKS = /\/assets\/(TaskCard|CallList)-[^/]*\.js$/;

const tasksRegion = (page: Page) => page.getByRole('region', { name: 'Tasks', exact: true });
const resultsRegion = (page: Page) => page.getByRole('region', { name: 'Results', exact: true });

for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test.describe(`${width} px, ${scheme}`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    });

    test(`the task cards and results waiting for their code at ${width} px (${scheme})`, async ({
      page,
    }) => {
      await page.route(LATER_CHUNKS, () => {
        // Never answered: the code is still on its way when the picture is taken.
      });
      await openPlayground(page);
      await callTool(page, 'slow_compute', { seconds: '30' });
      await expect(tasksRegion(page).getByRole('status')).toHaveText('Loading the task cards…');
      await expect(resultsRegion(page).getByRole('status')).toHaveText('Loading the results…');
      await tasksRegion(page).scrollIntoViewIfNeeded();
      await shoot(page, `${width}-${scheme}-10-later-loading`);
    });

    test(`the task cards and results whose code failed at ${width} px (${scheme})`, async ({
      page,
    }) => {
      await page.route(LATER_CHUNKS, (route) => route.abort('internetdisconnected'));
      await openPlayground(page);
      await callTool(page, 'slow_compute', { seconds: '30' });
      await expect(tasksRegion(page).getByRole('alert')).toContainText('could not be loaded');
      await expect(resultsRegion(page).getByRole('alert')).toContainText('could not be loaded');
      // One with the browser's own words shown: its long asset URL must wrap inside the panel.
      await tasksRegion(page).locator('details summary').click();
      await tasksRegion(page).scrollIntoViewIfNeeded();
      await shoot(page, `${width}-${scheme}-10-later-failed`);
    });

    test(`the statechart view whose code failed at ${width} px (${scheme})`, async ({ page }) => {
      await page.route('**/assets/TaskDetail-*.js', (route) => route.abort('internetdisconnected'));
      await openPlayground(page);
      await callTool(page, 'slow_compute', { seconds: '30' });
      await page.getByRole('button', { name: 'Statechart' }).first().click();
      const alert = page.getByRole('alert').filter({ hasText: 'The statechart view could not' });
      await expect(alert.getByRole('button', { name: 'Try again' })).toBeFocused();
      await shoot(page, `${width}-${scheme}-10-later-detail-failed`);
    });

    test(`the Breakpoints form whose code failed at ${width} px (${scheme})`, async ({ page }) => {
      await page.route('**/assets/BreakpointsForm-*.js', (route) =>
        route.abort('internetdisconnected'),
      );
      await openPlayground(page);
      await page.locator('details.breaks summary').click();
      await expect(page.locator('details.breaks').getByRole('alert')).toContainText(
        'could not be loaded',
      );
      await shoot(page, `${width}-${scheme}-10-later-breakpoints-failed`);
    });
    });
  }
}
