/**
 * Fault injection in real Chromium: the simulated network between the page
 * and the server worker drops, delays and loses the real messages, and the
 * client recovers visibly with the same taskId (M3, C8). Faults are set up
 * through the fault panel, by its labels, as a learner would.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  callTool,
  counted,
  drawn,
  findRow,
  openPlayground,
  readWire,
  rowJson,
  serverStatus,
  taskCard,
  wireFromNow,
  wireRows,
  type WireRowText,
} from './playground.ts';
import { armRule, faultPanel, openSection } from './fault-panel.ts';

const connected = (page: Page): Locator =>
  page.getByRole('status').filter({ hasText: 'Connected as learner' });
const pushStatus = (page: Page): Locator => page.getByRole('status', { name: 'Push stream' });

/** Calls `greet`, a plain synchronous tool: one request, one response. */
async function greet(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /^greet\b/ }).click();
  const form = page.getByRole('form', { name: 'greet' });
  await form.getByRole('textbox', { name: 'name' }).fill(name);
  await form.getByRole('button', { name: 'Call greet' }).click();
}

async function faultLog(page: Page): Promise<Locator> {
  await openSection(page, 'Fault log');
  return faultPanel(page).getByRole('list', { name: /Fault events/ });
}

const handle = { direction: 'in', method: 'tools/call', gistStarts: 'task' } as const;

/** The taskId the server gave in the CreateTaskResult (the `tools/call` row that says `task working`). */
async function createdTaskId(page: Page): Promise<string> {
  // The wire log draws a few times a second, so the card can show the task first.
  const rows = await readWire(page, drawn(handle), 'the CreateTaskResult');
  return rows[findRow(rows, handle)]!.taskId;
}

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
});

test('M3: on a clean start the Fault log counts no fault (link #1 opened is listed, muted); a drop counts one', async ({
  page,
}) => {
  const summary = faultPanel(page).locator('summary').filter({ hasText: 'Fault log' });
  await expect(summary).toHaveText('Fault log (no faults)');
  const log = await faultLog(page);
  await expect(log).toContainText('link #1 opened');
  await page.getByRole('banner').getByRole('button', { name: 'Drop connection' }).click();
  await expect(log).toContainText('link #1 dropped');
  await expect(log).toContainText('link #2 opened');
  await expect(summary).toHaveText('Fault log (1 fault)');
});

test('M3, C8: drop right after the next CreateTaskResult; the client reconnects and the same taskId completes', async ({
  page,
}) => {
  await armRule(page, 'the next CreateTaskResult arrives', 'drop the connection');
  await callTool(page, 'slow_compute', { seconds: '2' });
  const card = taskCard(page, 'slow_compute');
  await expect(card).toBeVisible();

  const log = await faultLog(page);
  await expect(log).toContainText(
    'rule fired: When the next CreateTaskResult arrives: drop the connection',
  );
  await expect(log).toContainText('link #1 dropped');
  await expect(log).toContainText('link #2 opened');
  await expect(faultPanel(page).getByRole('list', { name: 'Armed rules' })).toHaveCount(0); // a rule fires once
  await expect(connected(page)).toBeVisible();

  await expect(serverStatus(card)).toHaveText('completed');
  await expect(card).toContainText('Computed in 2 s');
  const taskId = await createdTaskId(page);
  await expect(card.locator('.task-id')).toHaveText(taskId);
  // The answer that ended the task is drawn after every poll sent for it.
  const rows = await readWire(
    page,
    drawn({ direction: 'in', method: 'tasks/get', taskId, gist: 'completed' }),
    'the poll answered completed',
  );
  const polls = rows.filter((r) => r.direction === 'out' && r.method === 'tasks/get');
  expect(polls.length).toBeGreaterThan(0);
  expect(polls.every((r) => r.taskId === taskId)).toBe(true); // resumed by the same id, over link #2
});

test('T14, T15, C8: drop the link while input_required; the form is asked once and answered by exactly one tasks/update', async ({
  page,
}) => {
  await callTool(page, 'confirm_delete');
  const card = taskCard(page, 'confirm_delete');
  await expect(serverStatus(card)).toHaveText('input_required');
  const form = page.getByRole('form', { name: /Input request confirm/ });
  await expect(form).toHaveCount(1);

  await page.getByRole('button', { name: 'Drop connection' }).click();
  await expect(connected(page)).toBeVisible();
  const reconnected = await wireFromNow(page);
  // Polling resumes over the new link; the repeated request is still one form (T14).
  await readWire(
    page,
    counted(
      (r) => r.direction === 'in' && r.method === 'tasks/get' && r.gist === 'input_required',
      2,
      reconnected,
    ),
    'two polls answered input_required over the new link',
  );
  await expect(form).toHaveCount(1);

  await form.getByLabel('Delete it').check();
  await form.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(serverStatus(card)).toHaveText('completed');
  await expect(card).toContainText('Deleted report.txt');

  // Drawn after every tasks/update the answer went out in.
  const rows = await readWire(
    page,
    drawn({ direction: 'in', method: 'tasks/get', gist: 'completed' }),
    'the poll answered completed',
  );
  const updates = rows.filter((r) => r.direction === 'out' && r.method === 'tasks/update');
  const carrying: WireRowText[] = [];
  for (const update of updates) {
    const params = (await rowJson(page, update))['params'] as {
      inputResponses?: Record<string, unknown>;
    };
    if (params.inputResponses && 'confirm' in params.inputResponses) carrying.push(update);
  }
  expect(carrying).toHaveLength(1);
});

test('T17: cancel race: a cancel that reaches a stubborn migration while the link drops still ends completed, with "cancel requested"', async ({
  page,
}) => {
  await armRule(page, 'a tasks/cancel reaches the server', 'drop the connection');
  await callTool(page, 'stubborn_migration');
  const card = taskCard(page, 'stubborn_migration');
  await expect(serverStatus(card)).toHaveText('working');
  await card.getByRole('button', { name: 'Cancel task' }).click();
  await expect(card).toContainText('cancel requested');

  await expect(await faultLog(page)).toContainText(
    'rule fired: When a tasks/cancel reaches the server: drop the connection',
  );
  await expect(connected(page)).toBeVisible();
  await expect(serverStatus(card)).toHaveText('completed', { timeout: 15_000 });
  await expect(card).toContainText('cancel requested');
  await expect(card).toContainText('the job carried on through the cancel');
  await expect(card).toContainText('even though cancellation was requested');
  // The ack was lost with the link; the cancel went again under a new id (C8), one logical cancel.
  const rows = await readWire(
    page,
    drawn({ direction: 'in', method: 'tasks/get', gist: 'completed' }),
    'the poll answered completed',
  );
  const cancels = rows.filter((r) => r.direction === 'out' && r.method === 'tasks/cancel');
  expect(cancels.filter((r) => !r.gist.includes('re-issue'))).toHaveLength(1);
});

test('T13: kill the in-memory server while a task is input_required; the restarted server has lost it (-32602), shown plainly', async ({
  page,
}) => {
  await armRule(page, 'a task is reported input_required', 'kill the server, start a fresh one');
  await callTool(page, 'confirm_delete');
  const card = taskCard(page, 'confirm_delete');

  await expect(connected(page).filter({ hasText: 'worker #2' })).toBeVisible();
  const log = await faultLog(page);
  await expect(log).toContainText('server worker #1 killed');
  await expect(log).toContainText('server worker #2 started');

  await expect(card).toContainText('gave up: server answered -32602');
  await expect(card).toContainText('no longer knows this task');
  await expect(card).toContainText('Cause: the server restarted');
  await expect(card).toContainText('-32602');
  await expect(page.getByRole('form', { name: /Input request confirm/ })).toHaveCount(0); // nothing left to answer
  await readWire(
    page,
    drawn({ direction: 'in', method: 'tasks/get', gist: 'error -32602' }),
    'tasks/get answered -32602',
  );
});

test('offline for N seconds: the backoff counts down, the task waits offline, then resumes by the same taskId', async ({
  page,
}) => {
  // Long enough that a slow machine still sees the offline spell while the task works.
  await callTool(page, 'slow_compute', { seconds: '10' });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('working');
  const taskId = await createdTaskId(page);

  await faultPanel(page).getByLabel('Offline seconds').fill('6');
  await faultPanel(page).getByRole('button', { name: 'Go offline' }).click();
  await expect(faultPanel(page).getByRole('status')).toContainText('Offline');
  const bar = page.getByRole('status').filter({ hasText: 'Reconnecting' });
  await expect(bar).toContainText(/attempt \d+ in \d\.\d s/);
  await expect(bar).toContainText('network offline');
  await expect(card).toContainText('link: reconnecting');
  await expect(card).toContainText('offline'); // the poll fell due: held, not sent into a dead link

  await expect(connected(page)).toBeVisible({ timeout: 15_000 });
  await expect(serverStatus(card)).toHaveText('completed', { timeout: 15_000 });
  const rows = await readWire(
    page,
    drawn({ direction: 'in', method: 'tasks/get', taskId, gist: 'completed' }),
    'the poll answered completed',
  );
  const polls = rows.filter((r) => r.direction === 'out' && r.method === 'tasks/get');
  expect(polls.length).toBeGreaterThan(0);
  expect(polls.every((r) => r.taskId === taskId)).toBe(true);
  await expect(await faultLog(page)).toContainText('connect refused: network offline');
});

test('link conditions: messages show what the network did to them (delayed, lost)', async ({
  page,
}) => {
  await openSection(page, 'Link conditions');
  await expect(faultPanel(page)).toContainText(/seed \d+/);
  const latency = faultPanel(page).getByLabel('Latency to server (ms)');
  await latency.fill('150');
  await latency.press('Enter');
  await expect(faultPanel(page)).toContainText('→ 150±0 ms');
  await greet(page, 'Ada');
  const sent = wireRows(page).filter({ hasText: 'tools/call' }).first();
  await expect(sent).toContainText('+150ms');

  const loss = faultPanel(page).getByLabel('Loss to client (%)');
  await loss.fill('100');
  await loss.press('Enter');
  await greet(page, 'Bob');
  await expect(wireRows(page).filter({ hasText: 'lost' }).first()).toBeVisible();
  await expect(await faultLog(page)).toContainText('lost ← tools/call (loss rate)');
  await faultPanel(page).getByRole('button', { name: 'Perfect link' }).click();
  await expect(faultPanel(page)).toContainText('perfect link');
});

test('T18: push on: notifications/tasks arrive, and polling carries the task home after the stream is dropped', async ({
  page,
}) => {
  await page.getByRole('switch', { name: /Also subscribe/ }).check();
  await expect(pushStatus(page)).toContainText('no task to listen to');
  await callTool(page, 'slow_compute', { seconds: '5' });
  const card = taskCard(page, 'slow_compute');
  await expect(pushStatus(page)).toContainText(/Stream #\d+ open for 1 task/);
  await readWire(
    page,
    drawn(
      { direction: 'out', method: 'subscriptions/listen' },
      { direction: 'in', method: 'notifications/subscriptions/acknowledged' },
      { direction: 'in', method: 'notifications/tasks' },
    ),
    'the subscription, its acknowledgement and a notifications/tasks',
  );

  await page.getByRole('button', { name: 'Drop stream' }).click();
  await expect(pushStatus(page)).toContainText('Stream dropped; polling carries on');
  await expect(serverStatus(card)).toHaveText('completed', { timeout: 15_000 });
  // The stream ended (the server stops pushing), then a poll saw the task completed.
  const all = await readWire(
    page,
    (rows) => {
      const cancelled = findRow(rows, { direction: 'out', method: 'notifications/cancelled' });
      return (
        cancelled > -1 &&
        findRow(rows, { direction: 'in', method: 'tasks/get', gist: 'completed' }, cancelled) > -1
      );
    },
    'notifications/cancelled, then a poll answered completed',
  );
  const cancelled = findRow(all, { direction: 'out', method: 'notifications/cancelled' });
  const after = all.slice(cancelled);
  expect(
    after.filter((r) => r.direction === 'out' && r.method === 'tasks/get').length,
  ).toBeGreaterThan(0);
  expect(
    findRow(after, { direction: 'in', method: 'tasks/get', gist: 'completed' }),
  ).toBeGreaterThan(-1);
});
