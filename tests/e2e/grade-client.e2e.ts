/**
 * The page's own client graded: `npm run grade-client` (started here on a
 * free port, stopped after) is the learner's server ("Connect to your own
 * server"); the page runs every grader tool (answers the two inputs one at a
 * time, cancels the stubborn task, reloads across the long one), and the
 * grader's report card gives it full marks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard } from './playground.ts';

let grader: ChildProcess | undefined;
let graderUrl = '';

test.beforeAll(async () => {
  grader = spawn('node_modules/.bin/tsx', ['src/grade/node-grade-main.ts', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  graderUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    grader?.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /Grader listening on (http:\/\/\S+\/mcp)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    grader?.once('exit', (code) =>
      reject(new Error(`npm run grade-client exited (${code}): ${out}`)),
    );
  });
});

test.afterAll(() => {
  if (grader?.pid !== undefined) process.kill(-grader.pid, 'SIGTERM');
});

const TOKEN = 'e2e-page';
const connected = (page: Page) =>
  page.getByRole('status').filter({ hasText: `Connected to ${new URL(graderUrl).host}` });

interface CheckJson {
  id: string;
  status: string;
  summary: string;
  failures: string[];
}
interface ClientJson {
  client: string;
  fullMarks: boolean;
  checks: CheckJson[];
}

async function pageClientReport(): Promise<ClientJson | undefined> {
  const response = await fetch(graderUrl.replace(/\/mcp$/, '/report'), {
    headers: { accept: 'application/json' },
  });
  const card = (await response.json()) as { clients: ClientJson[] };
  return card.clients.find((c) => c.client === `bearer ${TOKEN}`);
}

test('T1, T12, T13, T14, T15, T17, T19: the page client runs every grader tool and gets full marks', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openPlayground(page);
  await page.getByText('Connect to your own server').click();
  await page.getByLabel('MCP endpoint URL').fill(graderUrl);
  await page.getByLabel(/Bearer token/).fill(TOKEN);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(connected(page)).toBeVisible();
  await expect(page.getByRole('button', { name: /^grade_restart_client\b/ })).toBeVisible();

  // The restart: the page goes away while the long task runs, and comes back from its journal.
  await callTool(page, 'grade_restart_client', { seconds: '12' });
  const restart = taskCard(page, 'grade_restart_client');
  await expect(serverStatus(restart)).toHaveText('working');
  const restartId = (await restart.locator('code.task-id').textContent())?.trim() ?? '';
  await page.reload();
  await expect(connected(page)).toBeVisible();
  await expect(restart.locator('code.task-id')).toHaveText(restartId);
  await expect(serverStatus(restart)).toHaveText('working');

  await callTool(page, 'grade_poll_interval');
  await callTool(page, 'grade_failed_task');
  await callTool(page, 'grade_ttl_expires');
  await callTool(page, 'grade_cancel_completes');
  const cancel = taskCard(page, 'grade_cancel_completes');
  await expect(serverStatus(cancel)).toHaveText('working');
  await cancel.getByRole('button', { name: 'Cancel task' }).click();

  await callTool(page, 'grade_two_inputs');
  const inputs = taskCard(page, 'grade_two_inputs');
  await expect(serverStatus(inputs)).toHaveText('input_required');
  for (const key of ['first', 'second']) {
    const form = page.getByRole('form', { name: new RegExp(`Input request ${key}\\b`) });
    await form.getByLabel(key).fill(`${key} answer`);
    await form.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect(form).toHaveCount(0);
  }

  await expect(serverStatus(inputs)).toHaveText('completed');
  await expect(serverStatus(taskCard(page, 'grade_failed_task'))).toHaveText('failed');
  await expect(serverStatus(taskCard(page, 'grade_poll_interval'))).toHaveText('completed', {
    timeout: 20_000,
  });
  await expect(serverStatus(taskCard(page, 'grade_ttl_expires'))).toHaveText('last heard: working');
  await expect(serverStatus(cancel)).toHaveText('completed', { timeout: 20_000 });
  await expect(serverStatus(restart)).toHaveText('completed', { timeout: 20_000 });

  // Every check has run; the report card says how they went.
  let report: ClientJson | undefined;
  await expect
    .poll(
      async () =>
        (report = await pageClientReport())?.checks.filter((c) => c.status === 'not-run').length,
    )
    .toBe(0);
  // The figures, for whoever reads the run.
  console.log(report?.checks.map((c) => `${c.status} ${c.id}: ${c.summary}`).join('\n'));
  expect(report?.checks.filter((c) => c.status !== 'pass')).toEqual([]);
  expect(report?.fullMarks).toBe(true);
});

/** WCAG's contrast ratio of two `rgb(r, g, b)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string): number => {
    const [r, g, bl] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (bl ?? 0);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

for (const colorScheme of ['light', 'dark'] as const)
  test(`the report card's JSON link is readable in ${colorScheme} mode (WCAG AA, 4.5:1)`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto(graderUrl.replace(/\/mcp$/, '/report'));
    const link = page.getByRole('link', { name: 'JSON' });
    await expect(link).toBeVisible();
    const [color, background] = await link.evaluate((a) => [
      getComputedStyle(a).color,
      getComputedStyle(document.body).backgroundColor,
    ]);
    expect(contrast(color!, background!)).toBeGreaterThanOrEqual(4.5);
  });
