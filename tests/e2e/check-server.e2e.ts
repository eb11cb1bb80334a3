/**
 * "Check this server" in Chromium: against `npm run serve` (started here) every check passes
 * or does not apply, each with its rule ids as links and its exact requests and responses,
 * and the report downloads as JSON and Markdown; against the deliberately broken fixture
 * server (a task without the extension, `Mcp-Name` never checked, `tasks/result` answered)
 * exactly the checks of the rules it breaks fail (T3, T19, T21). With the built-in server the
 * page says how to check it.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { openPlayground } from './playground.ts';
import { spawnTsx, type Spawned } from './spawned.ts';

let serve: Spawned | undefined;
let broken: Spawned | undefined;

test.beforeAll(async () => {
  [serve, broken] = await Promise.all([
    spawnTsx(['src/server/node-main.ts', '--port', '0'], /listening on (http:\/\/\S+\/mcp)/),
    spawnTsx(
      ['tests/fixtures/broken-tasks-server.ts', '--port', '0'],
      /broken tasks server: (http:\/\/\S+\/mcp)/,
    ),
  ]);
});

test.afterAll(() => {
  serve?.stop();
  broken?.stop();
});

/** Connects the page to `url`, opens the check and runs it with a quick slow_compute. */
async function runChecks(page: Page, url: string): Promise<void> {
  await openPlayground(page);
  await page.getByText('Connect to your own server').click();
  await page.getByLabel('MCP endpoint URL').fill(url);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `Connected to ${new URL(url).host}` }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Check this server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Check this server' });
  await expect(dialog.getByLabel(/^Tool to check/)).toHaveValue('slow_compute');
  await expect(dialog.getByLabel(/^Tool asking two questions/)).toHaveValue('multi_input');
  await expect(dialog.getByLabel(/^Tool ending with/)).toHaveValue('failing_job');
  await dialog.getByLabel(/^Its arguments/).fill('{"seconds": 1, "pollIntervalMs": 100}');
  // Keyboard: Enter in the form runs the checks.
  await dialog.getByLabel(/^Its arguments/).press('Enter');
  await expect(dialog.getByRole('button', { name: 'Stop' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Run the checks' })).toBeVisible({
    timeout: 90_000,
  });
}

const verdictsOf = (page: Page) =>
  page
    .getByRole('dialog')
    .getByRole('list', { name: 'Checks' })
    .getByRole('listitem')
    .evaluateAll((items) =>
      items.map((item) => [
        item.querySelector('.title')?.textContent ?? '',
        item.getAttribute('data-verdict') ?? '',
      ]),
    );

test('C5, T3, T19, T21: npm run serve passes every check; rule links, exact exchanges, JSON and Markdown downloads', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await runChecks(page, serve!.url);
  const dialog = page.getByRole('dialog', { name: 'Check this server' });
  await expect(dialog.getByRole('status').first()).toContainText('No check failed');
  const verdicts = await verdictsOf(page);
  expect(verdicts.length).toBeGreaterThanOrEqual(12);
  expect(verdicts.filter(([, verdict]) => verdict === 'fail')).toEqual([]);
  expect(verdicts.filter(([, verdict]) => verdict === 'pass').length).toBeGreaterThanOrEqual(12);

  const nameCheck = dialog
    .getByRole('listitem')
    .filter({ hasText: /Mcp-Name/ })
    .first();
  await expect(nameCheck.getByRole('link', { name: 'T19' })).toHaveAttribute(
    'href',
    /view=spec&rule=T19/,
  );
  await nameCheck.getByText(/^The exact/).click();
  // Its last exchange is the tasks/get sent without Mcp-Name, answered -32020.
  await expect(nameCheck.getByRole('region', { name: /request$/ }).last()).toContainText(
    '"method": "tasks/get"',
  );
  await expect(nameCheck.getByRole('region', { name: /request$/ }).last()).not.toContainText(
    'mcp-name:',
  );
  await expect(nameCheck.getByRole('region', { name: /response$/ }).last()).toContainText('-32020');
  await expect(nameCheck.getByRole('button', { name: /request$/ }).first()).toHaveText('Copy');

  for (const [button, suffix] of [
    ['Download JSON', '.json'],
    ['Download Markdown', '.md'],
  ] as const) {
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: button }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(
      new RegExp(`^check-127\\.0\\.0\\.1_\\d+-.*\\${suffix}$`),
    );
    const text = await readFile((await file.path())!, 'utf8');
    expect(text).toContain(serve!.url);
    expect(text).toContain('T19');
  }

  // Esc closes the dialog; the results stay for the next look.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Check this server' }).click();
  await expect(dialog.getByRole('status').first()).toContainText('No check failed');
});

test('T3, T19, T21: against the broken fixture exactly the checks of the rules it breaks fail', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await runChecks(page, broken!.url);
  const dialog = page.getByRole('dialog', { name: 'Check this server' });
  const failed = await dialog
    .locator('li[data-verdict="fail"]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-check')));
  expect(failed.sort()).toEqual(
    [
      'no-task-without-extension',
      'required-capability-error',
      'mcp-name-missing',
      'mcp-name-wrong',
      'no-tasks-result',
    ].sort(),
  );
  // Everything else passed or did not apply: nothing waiting, nothing stopped.
  expect(
    (await verdictsOf(page)).every(([, v]) => ['pass', 'fail', 'not-applicable'].includes(v!)),
  ).toBe(true);
  await expect(dialog.getByRole('status').first()).toContainText('5 failed');
});

test('with the built-in server the page says how to check one', async ({ page }) => {
  await openPlayground(page);
  await page.getByText('Connect to your own server').click();
  await expect(page.getByText(/Check this server runs raw HTTP checks/)).toContainText(
    'npm run serve',
  );
  await expect(page.getByRole('button', { name: 'Check this server' })).toHaveCount(0);
});
