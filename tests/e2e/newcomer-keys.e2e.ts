/**
 * What a newcomer tripped on with the keyboard, on the built page: the task
 * history's Home then End (the buttons that disable themselves hand the
 * focus on instead of dropping it to <body>); in a replay, the arrows in an
 * open task detail belong to it, not to the replay's slider; the skip link
 * names the replay; a replay card and its chart tell one story before the
 * first report; and a breakpoint's pause says which, in the header, at
 * every width.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { parseRunFile } from '../../src/record/run-file.ts';
import { callTool, openPlayground, taskCard } from './playground.ts';
import { detailOf } from './task-detail-page.ts';

const RUN = 'public/runs/cancel-race.json';
const time = (page: Page): Locator =>
  page.getByRole('banner').getByRole('group', { name: 'World time' });
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el === document.body ? '<body>' : (el?.getAttribute('aria-label') ?? el?.textContent);
  });

/** The first `xray` event of the recording: the task met by its x-ray before the client heard of it. */
function firstXrayAt(): number {
  const verdict = parseRunFile(readFileSync(RUN, 'utf8'));
  if (!verdict.ok) throw new Error(verdict.error);
  const xray = verdict.run.events.find((event) => event.kind === 'xray');
  if (!xray) throw new Error('no x-ray in the run');
  return xray.at;
}

test('task history: Home, then End, with the focus on Back: the focus stays in the group and End goes live', async ({
  page,
}) => {
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '2' });
  const card = taskCard(page, 'slow_compute');
  await expect(card.getByRole('status', { name: 'Server status' })).toHaveText('completed', {
    timeout: 20_000,
  });
  await card.getByRole('button', { name: 'Statechart' }).click();
  const detail = detailOf(page);
  const position = detail.getByTestId('history-position');
  await expect(position).toContainText('(live)');
  const buttons = detail.getByRole('group', { name: 'Step through history' });
  await buttons.getByRole('button', { name: 'Step back' }).focus();

  // Home disables « and Back: the focus moves to Forward, the still-enabled neighbour.
  await page.keyboard.press('Home');
  await expect(position).toContainText(/Step 1 of \d+:/);
  await expect(buttons.getByRole('button', { name: 'Step back' })).toBeDisabled();
  await expect.poll(() => focusedName(page)).toBe('Step forward');

  // End still lands: live again, Forward disabled in turn hands the focus back to Back.
  await page.keyboard.press('End');
  await expect(position).toContainText('(live)');
  await expect.poll(() => focusedName(page)).toBe('Step back');
});

test('replay: the arrows in an open task detail are its own, the slider takes them only when focused', async ({
  page,
}) => {
  await page.goto('/?run=runs/cancel-race.json');
  const bar = page.getByRole('region', { name: 'Replay' });
  const slider = bar.getByRole('slider', { name: 'Time in the run' });
  // At the end: the task's whole history to step through.
  await slider.fill((await slider.getAttribute('max')) ?? '0');
  const at = await slider.inputValue();
  await page
    .locator('article.replay-task')
    .first()
    .getByRole('button', { name: /^Statechart/ })
    .click();
  const detail = page.locator('section.detail');
  const close = detail.getByRole('button', { name: /^Close/ });
  await expect(close).toBeFocused();

  // On the detail's Close button: neither arrow moves the slider.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowLeft');
  // On the history's steps: the arrows step the history, not the replay.
  const position = detail.getByTestId('history-position');
  await detail.getByRole('button', { name: 'Step back' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(position).not.toContainText('(live)');
  expect(await slider.inputValue()).toBe(at);

  // The slider focused: the arrows are the replay's again (a message back).
  await slider.focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => slider.inputValue()).not.toBe(at);
});

test('replay: the skip link says "Skip to the replay" and lands on its controls', async ({
  page,
}) => {
  await page.goto('/?run=runs/cancel-race.json');
  const bar = page.getByRole('region', { name: 'Replay' });
  await expect(bar.getByRole('slider', { name: 'Time in the run' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the replay' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(bar).toBeFocused();
  // From there the arrows drive the replay (nothing that takes keys has the focus).
  await page.keyboard.press('ArrowRight');
  await expect(bar.getByRole('status')).not.toContainText('0.00 s /');
});

test('replay: before the first report, the card and its chart both say none was heard', async ({
  page,
}) => {
  await page.goto('/?run=runs/cancel-race.json');
  const slider = page.getByRole('slider', { name: 'Time in the run' });
  await slider.fill(String(firstXrayAt()));
  const card = page.locator('article.replay-task').first();
  await expect(card.getByRole('status', { name: 'Server status' })).toHaveText('no report yet');
  // The chart fills no status the client saw (the x-ray alone shows what the store holds).
  await expect(card.locator('[data-client-saw]')).toHaveAttribute('data-client-saw', '');
  await card.getByRole('button', { name: /^Statechart/ }).click();
  await expect(
    page.locator('section.detail').getByRole('status', { name: 'Server status in statechart' }),
  ).toHaveText('no report yet');
});

for (const width of [1440, 1024, 390]) {
  test(`T17: at ${width} px a breakpoint's pause says which beside "Paused", the same words read out`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await openPlayground(page);
    await time(page).locator('summary').click();
    await time(page).getByRole('combobox', { name: 'method' }).fill('tasks/get');
    await time(page).getByRole('button', { name: 'Add breakpoint' }).click();
    await page.keyboard.press('Escape');
    await callTool(page, 'slow_compute', { seconds: '5' });

    const words = time(page).getByTestId('paused-at');
    await expect(words).toHaveText('at breakpoint tasks/get sent');
    await expect(words).toHaveAttribute('title', /^breakpoint: a message with method tasks\/get/);
    await expect(time(page).locator('[aria-live="polite"]')).toHaveText(
      'Paused at breakpoint: tasks/get sent',
    );
    // Drawn whole inside the window.
    const box = await words.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    expect(await words.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // Beside the state and the world's lag; at 1440 px the header keeps its one row.
    await expect(time(page).getByRole('status')).toHaveText('Paused');
    if (width === 1440)
      expect((await page.getByRole('banner').boundingBox())?.height).toBeLessThan(70);

    // Resumed (the breakpoint removed, else the next poll pauses again), the words go.
    await time(page).locator('summary').click();
    await time(page)
      .getByRole('button', { name: /^Remove/ })
      .click();
    await page.keyboard.press('Escape');
    await time(page).getByRole('button', { name: 'Resume' }).click();
    await expect(words).toHaveCount(0);
  });
}
