/**
 * Durable tasks in real Chromium, against the production build: the page
 * keeps what it follows in IndexedDB and carries on after a reload (T12),
 * an IndexedDB server store lets a fresh worker finish a killed worker's
 * job from its checkpoint, a second tab follows a task by its id alone
 * (M5), and an in-memory server loses everything when its worker goes (T13).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  callTool,
  counted,
  drawn,
  findRow,
  openPlayground,
  readWire,
  serverStatus,
  taskCard,
  tasksRegion,
} from './playground.ts';

test.describe.configure({ timeout: 60_000 });

/** Picks where the server keeps tasks; the worker restarts with it. */
async function useServerStore(page: Page, store: 'IndexedDB' | 'Worker memory'): Promise<void> {
  await page.getByRole('radio', { name: store }).check();
  // The worker restarts with the new store: give a loaded machine time.
  await expect(page.getByRole('status', { name: 'Server store in use' })).toHaveText(
    `in use: ${store === 'IndexedDB' ? 'IndexedDB' : 'memory'}`,
    { timeout: 20_000 },
  );
}

async function reload(page: Page): Promise<void> {
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();
}

const taskIdOf = async (card: Locator): Promise<string> =>
  (await card.locator('code.task-id').textContent())?.trim() ?? '';
const cardById = (page: Page, taskId: string): Locator =>
  tasksRegion(page)
    .getByRole('article')
    .filter({ has: page.locator('code.task-id', { hasText: taskId }) });
const inputForms = (page: Page): Locator => page.getByRole('form', { name: /Input request/ });

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
});

test('T12, M5: reload mid-task; the same taskId carries on and completes', async ({ page }) => {
  await useServerStore(page, 'IndexedDB');
  await callTool(page, 'slow_compute', { seconds: '5' });
  const taskId = await taskIdOf(taskCard(page, 'slow_compute'));
  await expect(taskCard(page, 'slow_compute')).toContainText('computing: 1 of 5 s');

  await reload(page);

  const card = cardById(page, taskId);
  await expect(card).toHaveCount(1);
  await expect(serverStatus(card)).toHaveText('completed', { timeout: 20_000 });
  await expect(card).toContainText('Computed in 5 s');
  // The old page's worker died with it; a fresh one took the job over from its checkpoint.
  await expect(card).toContainText('resumed by a fresh worker');
  await readWire(
    page,
    drawn({ direction: 'out', method: 'tasks/get', taskId }),
    'a tasks/get for the same taskId',
  );
});

test('T14: reload during input_required; the form is shown once, answered, and the task completes', async ({
  page,
}) => {
  await useServerStore(page, 'IndexedDB');
  await callTool(page, 'deploy_service');
  await expect(inputForms(page)).toHaveCount(1);
  const taskId = await taskIdOf(taskCard(page, 'deploy_service'));

  await reload(page);

  const card = cardById(page, taskId);
  await expect(serverStatus(card)).toHaveText('input_required');
  const form = card.getByRole('form', { name: /Input request approve_rollout/ });
  await expect(form).toHaveCount(1);
  // Every poll repeats the outstanding request (T14); still one form.
  await readWire(
    page,
    counted((r) => r.direction === 'in' && r.taskId === taskId && r.gist === 'input_required', 3),
    'three polls answered input_required',
  );
  await expect(inputForms(page)).toHaveCount(1);

  await form.getByLabel('Approve roll-out').check();
  await form.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(serverStatus(card)).toHaveText('completed', { timeout: 20_000 });
  await expect(card).toContainText('Deployed checkout to all 10 production hosts.');
});

test('T14, T15: a key answered offline just before a reload is sent after it, and never asked again', async ({
  page,
}) => {
  await useServerStore(page, 'IndexedDB');
  await callTool(page, 'deploy_service');
  const form = inputForms(page);
  await expect(form).toHaveCount(1);
  const taskId = await taskIdOf(taskCard(page, 'deploy_service'));
  // Offline, the tasks/update cannot leave: the answer exists only in the page's facts.
  await page.getByLabel('Offline seconds').fill('60');
  await page.getByRole('button', { name: 'Go offline' }).click();
  await form.getByLabel('Approve roll-out').check();
  await form.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(form).toHaveCount(0);

  await reload(page);

  const card = cardById(page, taskId);
  await expect(card).toContainText('Answered: approve_rollout');
  // The server still lists the key until the re-sent answer lands: the page must not ask again.
  const formsSeen: number[] = [];
  await expect
    .poll(
      async () => {
        formsSeen.push(await inputForms(page).count());
        return (await serverStatus(card).textContent())?.trim();
      },
      { timeout: 20_000, intervals: [100] },
    )
    .toBe('completed');
  expect(formsSeen.filter((n) => n > 0)).toEqual([]);
  await expect(card).toContainText('Deployed checkout to all 10 production hosts.');
  await readWire(
    page,
    drawn({ direction: 'out', method: 'tasks/update', taskId }),
    'the tasks/update sent after the reload',
  );
});

test("with the IndexedDB store, a killed worker's job finishes from its checkpoint in a fresh worker", async ({
  page,
}) => {
  await useServerStore(page, 'IndexedDB');
  await callTool(page, 'export_report', { stageMs: '1000' });
  const card = taskCard(page, 'export_report');
  // Any checkpoint past the first two stages and before the last: a loaded machine's polls can
  // step over one checkpoint (seen in CI: 1, then 3).
  await expect(card).toContainText(/[2-4] of 6 stages done/);

  await page.getByRole('button', { name: 'Kill server' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Reconnecting' })).toBeVisible();
  await page.getByRole('button', { name: 'Restart server' }).click();

  await expect(card).toContainText('resumed by a fresh worker', { timeout: 15_000 });
  // Carried on from the checkpoint: the first stages are not run again.
  const messages: string[] = [];
  await expect
    .poll(
      async () => {
        const text = (await card.locator('.status-message').textContent()) ?? '';
        if (messages.at(-1) !== text) messages.push(text);
        return (await serverStatus(card).textContent())?.trim();
      },
      { timeout: 15_000, intervals: [100] },
    )
    .toBe('completed');
  expect(messages.filter((m) => m.startsWith('0%') || m.startsWith('17%'))).toEqual([]);
  await expect(card).toContainText('Exported Q3 report');
  await expect(card).toContainText('6 of 6 stages done (uploading)');
});

test("M5, C1: a second tab follows the first tab's task by id, and its cancel reaches the job", async ({
  page,
}) => {
  await useServerStore(page, 'IndexedDB');
  const second = await page.context().newPage();
  await openPlayground(second);
  // The choice is kept across tabs: the second worker shares the first one's database.
  await expect(second.getByRole('status', { name: 'Server store in use' })).toHaveText(
    'in use: IndexedDB',
  );

  await callTool(page, 'slow_compute', { seconds: '30' });
  const first = taskCard(page, 'slow_compute');
  const taskId = await taskIdOf(first);
  await expect(serverStatus(first)).toHaveText('working');

  // The card's "copy it" puts the bare taskId on the clipboard; it is all the second tab needs.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await first.getByRole('button', { name: 'copy it' }).click();
  await expect(first.getByRole('button', { name: 'copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(taskId);

  await second.getByLabel('Follow task by id').fill(taskId);
  await second.getByRole('button', { name: 'Follow', exact: true }).click();
  const followed = cardById(second, taskId);
  await expect(serverStatus(followed)).toHaveText('working');
  await expect(followed).toContainText(/computing: \d+ of 30 s/);

  // Served by the second tab's worker, carried out by the first tab's job.
  await followed.getByRole('button', { name: 'Cancel task' }).click();
  await expect(serverStatus(followed)).toHaveText('cancelled');
  await expect(serverStatus(first)).toHaveText('cancelled');
  await second.close();
});

test('M5: following an id the server does not know says so plainly (-32602)', async ({ page }) => {
  await page.getByLabel('Follow task by id').fill('no-such-task');
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'tasks/get failed' });
  await expect(alert).toContainText('-32602');
  // Never heard of by this tab's in-memory worker: the page names the likely cause.
  await expect(alert).toContainText("another tab's server worker holds it");
});

test('T13: with the in-memory store, a reload loses the task and the page says so (-32602)', async ({
  page,
}) => {
  await callTool(page, 'slow_compute', { seconds: '30' });
  const taskId = await taskIdOf(taskCard(page, 'slow_compute'));
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('working');

  await reload(page);

  const card = cardById(page, taskId);
  await expect(card).toContainText('gave up: server answered -32602');
  // The page knows why: the task came from an earlier page, whose worker kept it in memory.
  await expect(card).toContainText('Cause: the task was followed from an earlier page');
  await expect(card).toContainText('-32602');
  await readWire(
    page,
    drawn({ direction: 'in', method: 'tasks/get', gist: 'error -32602' }),
    'tasks/get answered -32602',
  );
});

test('T13: with the in-memory store, a killed worker loses the task (-32602)', async ({ page }) => {
  await callTool(page, 'slow_compute', { seconds: '30' });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('working');
  await page.getByRole('button', { name: 'Kill server' }).click();
  await page.getByRole('button', { name: 'Restart server' }).click();
  await expect(card).toContainText('gave up: server answered -32602');
  await expect(card).toContainText('-32602');
});

test('finished tasks stay listed across reloads until cleared; "Clear everything" asks first, then empties both stores and the log', async ({
  page,
}) => {
  await useServerStore(page, 'IndexedDB');
  await callTool(page, 'slow_compute', { seconds: '0' });
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('completed', {
    timeout: 20_000,
  });
  await callTool(page, 'slow_compute', { seconds: '30' });
  await expect(tasksRegion(page).getByRole('article')).toHaveCount(2);

  await reload(page);
  await expect(tasksRegion(page).getByRole('article')).toHaveCount(2);
  await expect(
    tasksRegion(page).getByRole('article').filter({ hasText: 'Computed in 0 s' }),
  ).toHaveCount(1);

  const dialog = page.getByRole('dialog', { name: 'Clear everything?' });
  await page.getByRole('button', { name: 'Clear everything…' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Keep everything' }).click();
  await expect(dialog).toBeHidden();
  await expect(tasksRegion(page).getByRole('article')).toHaveCount(2);

  await page.getByRole('button', { name: 'Clear everything…' }).click();
  await dialog.getByRole('button', { name: 'Clear everything' }).click();
  await expect(tasksRegion(page).getByRole('article')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();

  await reload(page);
  await expect(tasksRegion(page).getByRole('article')).toHaveCount(0);
  // The log starts afresh: nothing from before the clear came back. A kept log is drawn
  // ahead of everything the fresh page sends, so once its tools/list answer is drawn, it would be too.
  const rows = await readWire(
    page,
    drawn({ direction: 'in', method: 'tools/list' }),
    "the fresh page's tools/list answer",
  );
  expect(findRow(rows, { method: 'tools/call' })).toBe(-1);
});
