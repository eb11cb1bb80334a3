/**
 * "Test your own server" at 1440, 1024 and 390 px, light and dark: the connect panel when CORS
 * blocks a server (the proxy command), connected to `npm run serve`, and the "Check this
 * server" report after a run with one check's exchanges open (into screenshots/widths/). At
 * 1440 px light, the connect panel and the report also go to docs/ for the README.
 */
import { expect, test, type Page } from '@playwright/test';
import { openPlayground } from '../e2e/playground.ts';
import { spawnTsx, type Spawned } from '../e2e/spawned.ts';

const WIDTHS = [1440, 1024, 390] as const;
let serve: Spawned | undefined;
let closed: Spawned | undefined;

test.beforeAll(async () => {
  [serve, closed] = await Promise.all([
    spawnTsx(['src/server/node-main.ts', '--port', '0'], /listening on (http:\/\/\S+\/mcp)/),
    spawnTsx(
      ['src/server/node-main.ts', '--port', '0', '--no-cors'],
      /listening on (http:\/\/\S+\/mcp)/,
    ),
  ]);
});

test.afterAll(() => {
  serve?.stop();
  closed?.stop();
});

async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
}

async function connect(page: Page, url: string): Promise<void> {
  const panel = page.getByRole('region', { name: /own server/ });
  if (await page.getByText('Another server or token').isVisible())
    await page.getByText('Another server or token').click();
  else await page.getByText('Connect to your own server').click();
  await panel.getByLabel('MCP endpoint URL').fill(url);
  await panel.getByRole('button', { name: /^(Connect|Reconnect)$/ }).click();
}

for (const width of WIDTHS) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`your own server at ${width} px (${scheme})`, async ({ page }) => {
      test.setTimeout(150_000);
      const name = `${width}-${scheme}-6-own-server`;
      const docs = width === 1440 && scheme === 'light';
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openPlayground(page);

      await connect(page, closed!.url);
      const panel = page.getByRole('region', { name: 'Your own server' });
      await expect(panel.getByText('CORS blocked the call.')).toBeVisible({ timeout: 20_000 });
      await settle(page);
      await panel.screenshot({ path: `screenshots/widths/${name}-1-cors.png` });

      await connect(page, serve!.url);
      await expect(panel.getByText('declared (io.modelcontextprotocol/tasks)')).toBeVisible();
      await settle(page);
      await page.screenshot({ path: `screenshots/widths/${name}-2-connected.png`, fullPage: true });
      if (docs) await panel.screenshot({ path: 'docs/connect-panel.png' });

      await panel.getByRole('button', { name: 'Check this server' }).click();
      const dialog = page.getByRole('dialog', { name: 'Check this server' });
      await dialog.getByLabel(/^Its arguments/).fill('{"seconds": 1, "pollIntervalMs": 100}');
      await dialog.getByRole('button', { name: 'Run the checks' }).click();
      await expect(dialog.getByRole('button', { name: 'Run the checks' })).toBeVisible({
        timeout: 90_000,
      });
      await settle(page);
      await page.screenshot({ path: `screenshots/widths/${name}-3-check.png` });
      if (docs) await page.screenshot({ path: 'docs/check-report.png' });
      await dialog
        .getByRole('listitem')
        .filter({ hasText: /Mcp-Name/ })
        .first()
        .getByText(/^The exact/)
        .click();
      await settle(page);
      await page.screenshot({ path: `screenshots/widths/${name}-4-exchange.png` });
    });
  }
}
