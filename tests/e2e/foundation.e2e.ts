/**
 * The foundation, end to end in real Chromium against the production build:
 * the page's client and the worker's server speak real JSON-RPC, and what
 * the learner sees on screen matches what crossed the wire.
 */
import { expect, test } from '@playwright/test';
import {
  callTool,
  counted,
  drawn,
  findRow,
  openPlayground,
  readWire,
  resultsRegion,
  rowJson,
  serverStatus,
  taskCard,
  tasksRegion,
  wireRows,
} from './playground.ts';

const TASKS = 'io.modelcontextprotocol/tasks';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
});

test('T7, T10, T12: a declared call becomes a task that is polled from working to completed', async ({
  page,
}) => {
  await callTool(page, 'slow_compute', { seconds: '2' });

  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('working');
  await expect(serverStatus(card)).toHaveText('completed');
  await expect(card).toContainText('Computed in 2 s');
  const taskId = (await card.locator('.task-id').textContent())?.trim() ?? '';
  expect(taskId).not.toBe('');

  // The wire tells the same story, in order: call -> task handle -> polls -> completed.
  const rows = await readWire(
    page,
    drawn({ direction: 'in', method: 'tasks/get', taskId, gist: 'completed' }),
    'the poll answered completed',
  );
  const call = findRow(rows, { direction: 'out', method: 'tools/call' });
  const handle = findRow(
    rows,
    { direction: 'in', method: 'tools/call', gistStarts: 'task', taskId },
    call + 1,
  );
  const firstPoll = findRow(rows, { direction: 'out', method: 'tasks/get', taskId }, handle + 1);
  const done = findRow(
    rows,
    { direction: 'in', method: 'tasks/get', taskId, gist: 'completed' },
    firstPoll + 1,
  );
  expect(call).toBeGreaterThan(-1);
  expect(handle).toBeGreaterThan(call);
  expect(firstPoll).toBeGreaterThan(handle);
  expect(done).toBeGreaterThan(firstPoll);

  const request = await rowJson(page, call);
  const params = request['params'] as {
    name: string;
    _meta: Record<string, { extensions?: Record<string, unknown> }>;
  };
  expect(params.name).toBe('slow_compute');
  expect(params._meta[CAPS]?.extensions?.[TASKS]).toEqual({});

  const created = (await rowJson(page, handle))['result'] as Record<string, unknown>;
  expect(created).toMatchObject({ resultType: 'task', taskId, status: 'working' });

  const final = (await rowJson(page, done))['result'] as Record<string, unknown>;
  expect(final).toMatchObject({ resultType: 'complete', taskId, status: 'completed' });
  expect(JSON.stringify(final['result'])).toContain('Computed in 2 s');
});

test('T14, T15: an input request is asked once, answered, and the task completes', async ({
  page,
}) => {
  await callTool(page, 'deploy_service');

  const card = taskCard(page, 'deploy_service');
  await expect(serverStatus(card)).toHaveText('input_required');
  const form = page.getByRole('form', { name: /Input request approve_rollout/ });
  await expect(form).toContainText('Roll out to the rest?');

  // Every poll repeats the outstanding request (T14); the form is still shown once.
  await readWire(
    page,
    counted(
      (r) => r.direction === 'in' && r.method === 'tasks/get' && r.gist === 'input_required',
      3,
    ),
    'three polls answered input_required',
  );
  await expect(form).toHaveCount(1);

  await form.getByLabel('Approve roll-out').check();
  await form.getByLabel('Change note').fill('e2e approval');
  await form.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(form).toHaveCount(0);
  await expect(card).toContainText('Answered: approve_rollout');
  // The answered form took the focus with it: the card keeps it, not <body>.
  await expect(card).toBeFocused();

  await expect(serverStatus(card)).toHaveText('completed');
  await expect(card).toContainText('Deployed checkout to all 10 production hosts.');
  await expect(page.getByRole('form', { name: /Input request/ })).toHaveCount(0);

  // Drawn after the tasks/update it answered, so every tasks/update sent is drawn too.
  const rows = await readWire(
    page,
    drawn({ direction: 'in', method: 'tasks/get', gist: 'completed' }),
    'the poll answered completed',
  );
  const update = findRow(rows, { direction: 'out', method: 'tasks/update' });
  expect(update).toBeGreaterThan(-1);
  expect(rows.filter((r) => r.direction === 'out' && r.method === 'tasks/update')).toHaveLength(1);
  const params = (await rowJson(page, update))['params'] as Record<string, unknown>;
  expect(params['inputResponses']).toEqual({
    approve_rollout: { action: 'accept', content: { approve: true, note: 'e2e approval' } },
  });
});

test('T17: cancelling a long task ends it cancelled', async ({ page }) => {
  await callTool(page, 'slow_compute', { seconds: '30' });

  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('working');
  await card.getByRole('button', { name: 'Cancel task' }).click();
  await expect(card).toContainText('cancel requested');
  await expect(serverStatus(card)).toHaveText('cancelled');
  // A finished task has nothing left to cancel: the button is gone.
  await expect(card.getByRole('button', { name: 'Cancel task' })).toHaveCount(0);

  const rows = await readWire(
    page,
    drawn(
      { direction: 'out', method: 'tasks/cancel' },
      { direction: 'in', method: 'tasks/cancel' },
    ),
    'the tasks/cancel and its answer',
  );
  const cancel = findRow(rows, { direction: 'out', method: 'tasks/cancel' });
  expect(cancel).toBeGreaterThan(-1);
  // The acknowledgement says "received", not the task's status (T17).
  expect(
    findRow(rows, { direction: 'in', method: 'tasks/cancel', gist: 'ack' }, cancel + 1),
  ).toBeGreaterThan(cancel);

  // Dismissing the only card leaves the keyboard on the Tasks heading, not <body>.
  await card.getByRole('button', { name: 'Dismiss' }).focus();
  await page.keyboard.press('Enter');
  await expect(card).toHaveCount(0);
  await expect(
    tasksRegion(page).getByRole('heading', { name: 'Tasks', exact: true }),
  ).toBeFocused();
});

test('T3, M4: without the extension a call is answered synchronously or refused with -32021', async ({
  page,
}) => {
  const toggle = page.getByRole('switch', {
    name: /Declare io\.modelcontextprotocol\/tasks on each request/,
  });
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await expect(toggle).not.toBeChecked();

  await callTool(page, 'slow_compute', { seconds: '1' });
  const results = resultsRegion(page);
  await expect(results).toContainText('Computed in 1 s');
  await expect(tasksRegion(page).getByRole('article')).toHaveCount(0);

  const rows = await readWire(
    page,
    drawn({ direction: 'in', method: 'tools/call' }),
    'the tools/call answer',
  );
  const call = findRow(rows, { direction: 'out', method: 'tools/call' });
  const answer = findRow(rows, { direction: 'in', method: 'tools/call' }, call + 1);
  expect(rows[answer]?.gist).toBe('complete');
  const request = (await rowJson(page, call))['params'] as {
    _meta: Record<string, { extensions?: Record<string, unknown> }>;
  };
  expect(request._meta[CAPS]?.extensions?.[TASKS]).toBeUndefined();
  const response = (await rowJson(page, answer))['result'] as Record<string, unknown>;
  expect(response['resultType']).toBe('complete');
  expect(response['taskId']).toBeUndefined();

  await callTool(page, 'failing_job');
  await expect(results).toContainText('-32021');
  await expect(results).toContainText('requires the io.modelcontextprotocol/tasks extension');
  await expect(tasksRegion(page).getByRole('article')).toHaveCount(0);
  await expect(wireRows(page).filter({ hasText: 'error -32021' })).toHaveCount(1);
});
