/**
 * Buttons that disable themselves as they act, pressed from the keyboard: the
 * focus goes to a neighbour still enabled, never to <body> (where the next
 * Tab starts again from the top of the page). A newcomer met it on Drop,
 * Kill, Cancel task and Clear finished tasks; the group they sit in hands the
 * focus on (`keepsFocusInGroup`).
 */
import { expect, test, type Page } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard } from './playground.ts';

/** The focused element's accessible words, or `<body>` when the focus was dropped. */
const focused = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '<body>';
    return (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
  });

test('C8: Drop pressed from the keyboard disables itself; the focus moves to Kill, not to <body>', async ({
  page,
}) => {
  await openPlayground(page);
  const group = page.getByRole('group', { name: 'Break things' });
  const drop = group.getByRole('button').first();
  await drop.focus();
  await page.keyboard.press('Enter');
  await expect(drop).toBeDisabled();
  await expect.poll(() => focused(page)).not.toBe('<body>');
  expect(
    await group.evaluate((el) => el.contains(document.activeElement)),
    'the focus stays among the Break things buttons',
  ).toBe(true);
});

test('T17: Cancel task pressed from the keyboard disables itself; the focus stays in the card', async ({
  page,
}) => {
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '10' });
  const card = taskCard(page, 'slow_compute');
  const cancel = card.getByRole('button', { name: 'Cancel task' });
  await cancel.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => focused(page)).toBe('Statechart');
  await expect(serverStatus(card)).toHaveText('cancelled', { timeout: 20_000 });
});

test('Clear finished tasks pressed from the keyboard disables itself; the focus moves to Clear everything', async ({
  page,
}) => {
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '1' });
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('completed', {
    timeout: 20_000,
  });
  const clear = page.getByRole('button', { name: /^Clear finished tasks \(1\)/ });
  await clear.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: /^Clear finished tasks$/ })).toBeDisabled();
  await expect.poll(() => focused(page)).toBe('Clear everything…');
});
