/**
 * The header's Run menu in Chromium, by keyboard only (WAI-ARIA menu
 * button): Enter opens it on its first item, ArrowDown walks to Copy link,
 * Enter copies the link and gives the focus back to the button; Esc, Tab
 * and a press outside close it. Open a run… opens the file picker, and
 * while a replay shows only it is offered.
 */
import { expect, test, type Page } from '@playwright/test';
import { serializeRunFile } from '../../src/record/run-file.ts';
import { cancelRaceRun } from '../unit/replay/run-fixture.ts';
import { openPlayground, runMenuButton, runMenuItem } from './playground.ts';

const menu = (page: Page) => page.getByRole('menu', { name: 'Run' });

test('by keyboard: Enter opens, ArrowDown to Copy link, Enter copies it and the focus is back on the button; Esc closes', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/?seed=4242');
  await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();
  const button = runMenuButton(page);
  await expect(button).toHaveAttribute('aria-haspopup', 'menu');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(menu(page)).toBeHidden();

  await button.focus();
  await page.keyboard.press('Enter');
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(runMenuItem(page, 'Save run')).toBeFocused();
  await expect(menu(page).getByRole('menuitem')).toHaveText([
    'Save run',
    'Export HAR',
    'Copy link',
    'Open a run…',
  ]);
  await page.keyboard.press('ArrowDown');
  await expect(runMenuItem(page, 'Export HAR')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(runMenuItem(page, 'Copy link')).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(page.getByTestId('run-share-status')).toContainText('Link copied');
  const link = new URL(await page.evaluate(() => navigator.clipboard.readText()));
  expect(link.searchParams.get('seed')).toBe('4242');
  await expect(menu(page)).toBeHidden();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(button).toBeFocused();

  // ArrowDown opens it too; End, Home and ArrowUp (wrapping) move; Esc closes onto the button.
  await page.keyboard.press('ArrowDown');
  await expect(runMenuItem(page, 'Save run')).toBeFocused();
  await page.keyboard.press('End');
  await expect(runMenuItem(page, 'Open a run…')).toBeFocused();
  await page.keyboard.press('Home');
  await expect(runMenuItem(page, 'Save run')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(runMenuItem(page, 'Open a run…')).toBeFocused();
  await page.keyboard.press('e');
  await expect(runMenuItem(page, 'Export HAR')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu(page)).toBeHidden();
  await expect(button).toBeFocused();
  // Esc was the menu's: the page is as it was (the status line still says what was done).
  await expect(page.getByTestId('run-share-status')).toContainText('Link copied');
});

test('Tab and a press outside close the menu; Tab moves on to the next control', async ({
  page,
}) => {
  await openPlayground(page);
  const button = runMenuButton(page);
  await button.focus();
  await page.keyboard.press(' ');
  await expect(runMenuItem(page, 'Save run')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(menu(page)).toBeHidden();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  // The focus went on past the button, not into the closed menu nor back to the page's top.
  expect(
    await page.evaluate(() => {
      const active = document.activeElement;
      const button = document.getElementById('run-menu-button');
      return (
        active !== null &&
        active !== document.body &&
        active !== button &&
        !document.getElementById('run-menu-menu')!.contains(active) &&
        (button!.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0
      );
    }),
  ).toBe(true);

  await button.click();
  await expect(runMenuItem(page, 'Save run')).toBeFocused();
  await page.getByRole('heading', { name: 'MCP Tasks Playground' }).click();
  await expect(menu(page)).toBeHidden();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
});

test('Open a run… opens the file picker; the run it picks is replayed, where only Open a run… is offered', async ({
  page,
}) => {
  await openPlayground(page);
  await runMenuButton(page).click();
  const choosing = page.waitForEvent('filechooser');
  await runMenuItem(page, 'Open a run…').click();
  const chooser = await choosing;
  await chooser.setFiles({
    name: 'cancel-race.json',
    mimeType: 'application/json',
    buffer: Buffer.from(serializeRunFile(cancelRaceRun())),
  });
  const bar = page.getByRole('region', { name: 'Replay' });
  await expect(bar.getByText('Replay of cancel-race.json')).toBeVisible();
  // The live run's actions do not apply to a replay: the menu offers another run only.
  await runMenuButton(page).click();
  await expect(menu(page).getByRole('menuitem')).toHaveText(['Open a run…']);
  await page.keyboard.press('Escape');
  await expect(menu(page)).toBeHidden();
});

test('keyboard: a run opened from Open a run… has the focus on Play, not on Run, and Space plays it', async ({
  page,
}) => {
  await openPlayground(page);
  const button = runMenuButton(page);
  await button.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('End');
  await expect(runMenuItem(page, 'Open a run…')).toBeFocused();
  const choosing = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (
    await choosing
  ).setFiles({
    name: 'cancel-race.json',
    mimeType: 'application/json',
    buffer: Buffer.from(serializeRunFile(cancelRaceRun())),
  });
  const bar = page.getByRole('region', { name: 'Replay' });
  await expect(bar.getByRole('button', { name: 'Play', exact: true })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(bar.getByRole('button', { name: 'Pause', exact: true })).toBeFocused();
  await expect(menu(page)).toBeHidden();
});
