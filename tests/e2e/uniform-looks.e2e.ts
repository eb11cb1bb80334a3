/**
 * What should look the same wherever it is on the page: a fold says ▸ shut
 * and ▾ open, the Connect fold as Scenarios; in the dark theme every text
 * field and select of the playground has one background, not the browser's
 * grey for some and the theme's surface for others.
 */
import { expect, test, type Locator } from '@playwright/test';
import { openPlayground } from './playground.ts';

/** What a summary draws before its words (its fold's arrow), or '' for none. */
const arrowOf = (summary: Locator): Promise<string> =>
  summary.evaluate((el) => getComputedStyle(el, '::before').content.replaceAll('"', ''));

test('layout: the Connect fold shows ▸ shut and ▾ open, as the Scenarios fold does', async ({
  page,
}) => {
  await openPlayground(page);
  const connect = page.locator('summary').filter({ hasText: 'Connect to your own server' });
  const scenarios = page.locator('summary').filter({ hasText: /^Scenarios/ });
  expect(await arrowOf(scenarios)).toBe('▸');
  expect(await arrowOf(connect)).toBe('▸');
  await connect.click();
  await expect(page.getByLabel('MCP endpoint URL')).toBeVisible();
  expect(await arrowOf(connect)).toBe('▾');
});

test('layout: in the dark theme every text field and select shown has one background and one border (password and datalist inputs too)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await openPlayground(page);
  // Open what holds fields of every kind: the Connect form (a password), the fault panel's
  // sections (numbers, selects), the Breakpoints panel (datalist inputs with no type).
  await page.locator('summary').filter({ hasText: 'Connect to your own server' }).click();
  await expect(page.getByLabel('Bearer token')).toBeVisible();
  for (const name of ['Link conditions', 'Scheduled faults'])
    await page.locator('summary').filter({ hasText: name }).click();
  const time = page.getByRole('banner').getByRole('group', { name: 'World time' });
  await time.locator('summary').click();
  await expect(time.getByRole('combobox', { name: 'method' })).toBeVisible();
  const looks = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('input, select, textarea')]
      .filter((el) => el.offsetParent !== null)
      .filter((el) => !['checkbox', 'radio', 'file', 'range'].includes(el.getAttribute('type')!))
      .map((el) => {
        const style = getComputedStyle(el);
        return `${style.backgroundColor} / ${style.borderTopColor}`;
      }),
  );
  expect(looks.length).toBeGreaterThan(10);
  expect(new Set(looks)).toEqual(new Set([looks[0]]));
});
