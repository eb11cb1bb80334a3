/**
 * Input needed before a task exists rides the core multi-round-trip flow
 * (T16): the tools/call itself answers `input_required`, and the retry
 * carrying `inputResponses` gets the task.
 */
import { expect, test } from '@playwright/test';
import {
  callTool,
  drawn,
  findRow,
  openPlayground,
  readWire,
  resultsRegion,
  rowJson,
  serverStatus,
  taskCard,
} from './playground.ts';

test('T16: input before the task is answered on the tools/call, then the retry becomes a task', async ({
  page,
}) => {
  await openPlayground(page);
  await callTool(page, 'test_tool_with_task');

  const form = resultsRegion(page).getByRole('form', { name: /Input request user_name/ });
  await expect(form).toContainText('What is your name?');
  await form.getByLabel('Name').fill('Ada');
  await form.getByRole('button', { name: 'Accept', exact: true }).click();

  const card = taskCard(page, 'test_tool_with_task');
  await expect(serverStatus(card)).toHaveText('completed');
  await expect(card).toContainText('Hello, Ada! This greeting ran as a task.');

  // The poll that saw it completed comes after both tools/calls.
  const rows = await readWire(
    page,
    drawn({ direction: 'in', method: 'tasks/get', gist: 'completed' }),
    'the poll answered completed',
  );
  const first = findRow(rows, { direction: 'in', method: 'tools/call', gist: 'input_required' });
  const retry = findRow(rows, { direction: 'out', method: 'tools/call' }, first + 1);
  expect(first).toBeGreaterThan(-1);
  expect(retry).toBeGreaterThan(first);
  const params = (await rowJson(page, rows[retry]!))['params'] as Record<string, unknown>;
  expect(params['inputResponses']).toEqual({
    user_name: { action: 'accept', content: { name: 'Ada' } },
  });
});
