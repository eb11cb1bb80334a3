/**
 * "Connect to your own server" in Chromium, with `npm run serve` (started
 * here on a free port, stopped after) as the learner's server: connect with
 * a bearer token, see what `server/discover` said, call slow_compute as a
 * task over real HTTP (the Node host answers CORS for the page), drop the
 * link mid-task, reload, and the same taskId resumes from the journal of
 * that server and completes. Then back to the built-in server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  callTool,
  openPlayground,
  serverStatus,
  taskCard,
  tasksRegion,
  wireRows,
} from './playground.ts';

let serve: ChildProcess | undefined;
let serverUrl = '';

test.beforeAll(async () => {
  // --port 0: the host picks a free port and prints the URL it serves.
  serve = spawn('node_modules/.bin/tsx', ['src/server/node-main.ts', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  serverUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    serve?.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+\/mcp)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    serve?.once('exit', (code) => reject(new Error(`npm run serve exited (${code}): ${out}`)));
  });
});

test.afterAll(() => {
  if (serve?.pid !== undefined) process.kill(-serve.pid, 'SIGTERM');
});

const taskIdOf = async (card: Locator): Promise<string> =>
  (await card.locator('code.task-id').textContent())?.trim() ?? '';
const connected = (page: Page): Locator =>
  page.getByRole('status').filter({ hasText: `Connected to ${new URL(serverUrl).host}` });

test('C8, T12, T19: connect to npm run serve, follow a task across a drop and a reload, go back', async ({
  page,
}) => {
  await openPlayground(page);
  await page.getByText('Connect to your own server').click();
  await page.getByLabel('MCP endpoint URL').fill(serverUrl);
  await page.getByLabel(/Bearer token/).fill('e2e-learner');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();

  await expect(connected(page)).toBeVisible();
  const discovered = page.getByRole('definition').filter({ hasText: 'mcp-tasks-playground' });
  await expect(discovered).toBeVisible();
  await expect(page.getByText('declared (io.modelcontextprotocol/tasks)')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Kill server' })).toBeDisabled();
  // Where the learner's server keeps its tasks is its own business: the store switch is off, and says why.
  const store = page.getByRole('radiogroup', { name: 'Server store' });
  await expect(store.getByRole('radio', { name: 'IndexedDB' })).toBeDisabled();
  await expect(store.getByRole('radio', { name: 'Worker memory' })).toBeDisabled();
  await expect(page.locator('#server-store-help')).toContainText('talks to your own server');
  await expect(page.getByRole('button', { name: /^slow_compute\b/ })).toBeVisible();

  await callTool(page, 'slow_compute', { seconds: '5' });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('working');
  const taskId = await taskIdOf(card);
  // The answer's HTTP status is on its row, the request's Mcp-* headers in its title (T19).
  const answered = wireRows(page).filter({ hasText: 'tools/call' }).locator('.mark-http');
  await expect(answered.first()).toContainText('HTTP 200');
  await expect(answered.first()).toHaveAttribute('title', /mcp-name: slow_compute/);

  await page.getByRole('button', { name: 'Drop connection' }).click();
  await expect(connected(page)).toBeVisible();
  await page.reload();
  await expect(connected(page)).toBeVisible();

  const resumed = tasksRegion(page)
    .getByRole('article')
    .filter({ has: page.locator('code.task-id', { hasText: taskId }) });
  await expect(resumed).toHaveCount(1);
  await expect(serverStatus(resumed)).toHaveText('completed', { timeout: 20_000 });

  await page.getByRole('button', { name: 'Back to the built-in server' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();
  // The built-in server's journal is its own: the remote task is not polled there.
  await expect(
    tasksRegion(page)
      .getByRole('article')
      .filter({ has: page.locator('code.task-id', { hasText: taskId }) }),
  ).toHaveCount(0);
});

test('bad input: a URL that is not http(s) is refused in words; a server that is down is named', async ({
  page,
}) => {
  await openPlayground(page);
  await page.getByText('Connect to your own server').click();
  await page.getByLabel('MCP endpoint URL').fill('ftp://example.com/mcp');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('ftp: is not http or https');
  await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();

  // A port nothing listens on (the discard port).
  await page.getByLabel('MCP endpoint URL').fill('http://127.0.0.1:9/mcp');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Nothing answers at http://127.0.0.1:9/mcp');
  await expect(page.getByRole('button', { name: 'Back to the built-in server' })).toBeEnabled();
  await page.getByRole('button', { name: 'Back to the built-in server' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();
});
