/**
 * T22: a task's input request gets the trust of a direct elicitation, no
 * more. The request's text (here built from a tool argument, so anyone
 * could have written it) is shown as text in the same form the page uses
 * for input asked before a task (T16), never as markup.
 */
import { expect, test } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard, tasksRegion } from './playground.ts';

const HOSTILE = '<img src=x onerror="window.__pwned=1"><b>bold</b>';

test('T22: an input request during a task is shown as text, in the form a direct elicitation gets', async ({
  page,
}) => {
  await openPlayground(page);
  await callTool(page, 'confirm_delete', { filename: HOSTILE });

  const form = tasksRegion(page).getByRole('form', { name: /Input request confirm/ });
  await expect(form).toContainText(`Delete ${HOSTILE}?`);
  await expect(form.locator('img, b')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  // The same three answers as the pre-task form (T16): nothing is accepted on the task's behalf.
  for (const name of ['Accept', 'Decline', 'Cancel'])
    await expect(form.getByRole('button', { name, exact: true })).toBeVisible();

  await form.getByRole('button', { name: 'Decline', exact: true }).click();
  const card = taskCard(page, 'confirm_delete');
  await expect(serverStatus(card)).toHaveText('completed');
  await expect(card).toContainText('deletion was not confirmed');
});
