/**
 * A server that sends no CORS headers (`npm run serve -- --no-cors`, started
 * here): the page says CORS blocked the call, shows `npm run proxy -- <url>`
 * with the learner's URL filled in and a copy button; with that proxy
 * running (started here too, with `--port`), the line it printed, pasted
 * whole, connects the page through it, which follows a task over real HTTP,
 * `Mcp-*` headers and all (T19).
 */
import { expect, test } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard, wireRows } from './playground.ts';
import { spawnTsx, type Spawned } from './spawned.ts';

let server: Spawned | undefined;
let proxy: Spawned | undefined;

test.beforeAll(async () => {
  server = await spawnTsx(
    ['src/server/node-main.ts', '--port', '0', '--no-cors'],
    /listening on (http:\/\/\S+\/mcp)/,
  );
});

test.afterAll(() => {
  proxy?.stop();
  server?.stop();
});

test('T19: CORS blocks the call, the page shows the proxy command for the URL; through the proxy it works', async ({
  page,
  context,
}) => {
  // Two processes started by tsx on a shared machine, then a task followed to the end.
  test.setTimeout(90_000);
  const url = server!.url;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openPlayground(page);
  await page.getByText('Connect to your own server').click();
  await page.getByLabel('MCP endpoint URL').fill(url);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();

  const blocked = page.getByRole('alert').filter({ hasText: 'CORS blocked the call' });
  await expect(blocked).toBeVisible({ timeout: 20_000 });
  await expect(blocked).not.toContainText('Failed to fetch');
  const command = `npm run proxy -- ${url}`;
  await expect(blocked.locator('code').first()).toHaveText(command);
  await blocked.getByRole('button', { name: 'Copy the proxy command' }).click();
  await expect(blocked.getByRole('status')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);

  // What the learner does next: run the command, here with --port (a free one), paste what it
  // printed (both lines, the target's address among them) and connect to the proxy.
  proxy = await spawnTsx(
    ['scripts/proxy.ts', url, '--port', '0'],
    /listening on (http:\/\/\S+\/mcp)/,
  );
  await blocked.getByLabel(/Paste the line it printed/).fill(proxy.printed);
  await blocked.getByRole('button', { name: 'Connect to the proxy' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `Connected to ${new URL(proxy.url).host}` }),
  ).toBeVisible();
  await expect(page.getByText('declared (io.modelcontextprotocol/tasks)')).toBeVisible();

  await callTool(page, 'slow_compute', { seconds: '1' });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('completed', { timeout: 20_000 });
  // The answer's HTTP status and the request's Mcp-* headers, read through the proxy.
  const answered = wireRows(page).filter({ hasText: 'tools/call' }).locator('.mark-http');
  await expect(answered.first()).toContainText('HTTP 200');
  await expect(answered.first()).toHaveAttribute('title', /mcp-name: slow_compute/);
});
