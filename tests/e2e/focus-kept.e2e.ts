/**
 * Buttons that disable themselves as they act, pressed from the keyboard: the
 * focus goes to a neighbour still enabled, never to <body> (where the next
 * Tab starts again from the top of the page). A newcomer met it on Drop,
 * Kill, Cancel task and Clear finished tasks (the group they sit in hands the
 * focus on: `keepsFocusInGroup`), on Step after Alt+P resumed the world, and
 * on "Use one shared store", which goes once pressed. Tests that prove no rule
 * of the spec, only the page's keyboard handling, say so with "keyboard:", as
 * elsewhere in the suite.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard } from './playground.ts';

/** The focused element's accessible words, or `<body>` when the focus was dropped. */
const focused = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '<body>';
    return (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
  });

/** The playground with its Cluster panel unfolded. */
async function openClusterPanel(page: Page): Promise<Locator> {
  await openPlayground(page);
  const panel = page.getByRole('region', { name: 'Cluster' });
  await panel.getByRole('button', { name: 'Cluster' }).click();
  return panel;
}

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

test('keyboard: Clear finished tasks pressed from the keyboard disables itself; the focus moves to Clear everything', async ({
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

test('keyboard: Alt+P with the focus on Step resumes the world; Step disables itself and the focus moves to Pause', async ({
  page,
}) => {
  await openPlayground(page);
  const time = page.getByRole('banner').getByRole('group', { name: 'World time' });
  await page.keyboard.press('Alt+KeyP');
  const step = time.getByRole('button', { name: 'Step' });
  await expect(step).toBeEnabled();
  await step.focus();
  await page.keyboard.press('Alt+KeyP');
  await expect(step).toBeDisabled();
  await expect.poll(() => focused(page)).toBe('Pause');
});

test('T19: "Use one shared store" goes once pressed; the focus moves to the Store it set, not to <body>', async ({
  page,
}) => {
  const panel = await openClusterPanel(page);
  await panel.getByLabel('Store', { exact: true }).selectOption('memory');
  await panel.getByLabel('Nodes', { exact: true }).selectOption('3');
  const fix = panel.getByRole('button', { name: 'Use one shared store' });
  await fix.focus();
  await page.keyboard.press('Enter');
  await expect(fix).toHaveCount(0);
  await expect(panel.getByLabel('Store', { exact: true })).toHaveValue('indexeddb');
  await expect.poll(() => focused(page)).toBe('Store');
});

test('keyboard: Kill node 2, a group within the Cluster panel, hands the focus to Restart beside it, not out of its row', async ({
  page,
}) => {
  const panel = await openClusterPanel(page);
  await panel.getByLabel('Nodes', { exact: true }).selectOption('3');
  const kill = panel.getByRole('button', { name: 'Kill node 2' });
  await kill.focus();
  await page.keyboard.press('Enter');
  await expect(kill).toBeDisabled();
  await expect.poll(() => focused(page)).toBe('Restart node 2');
});

/** Whether the focus is drawn where the learner can see it: the top of what holds it lies in the window and is not scrolled out of its column. */
const focusInSight = (page: Page): Promise<boolean> =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return false;
    const box = el.getBoundingClientRect();
    if (box.top < 0 || box.top >= innerHeight) return false;
    return el.contains(document.elementFromPoint(box.left + 4, box.top + 4));
  });

test('keyboard: at 390 px "Call slow_compute now" pressed: the page scrolls to the card it made, and the focus goes with it, in view', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlayground(page);
  const now = page.getByRole('button', { name: 'Call slow_compute now' });
  await now.focus();
  await page.keyboard.press('Enter');
  const card = taskCard(page, 'slow_compute');
  await expect(card).toBeFocused();
  await expect(card).toBeInViewport();
  await expect.poll(() => focusInSight(page)).toBe(true);
});

test("keyboard: at 1440 px the form's Call pressed: the new card shows beside it and the focus stays on Call, in sight", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 720 });
  await openPlayground(page);
  const call = page
    .getByRole('form', { name: 'slow_compute' })
    .getByRole('button', { name: 'Call slow_compute' });
  await call.focus();
  await page.keyboard.press('Enter');
  await expect(taskCard(page, 'slow_compute')).toBeInViewport();
  await expect.poll(() => focusInSight(page)).toBe(true);
});
