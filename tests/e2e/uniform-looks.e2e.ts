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
