/**
 * The task detail and the header, as a keyboard and a phone meet them: the
 * header never says why the last reconnect failed as if still true after a
 * restart; the timeline's fault count says what it draws, and each fault
 * mark is reachable by Tab, named by its tooltip; Tab runs on past the
 * detail's last control instead of falling to <body>; at 390 px Close
 * heads the detail and stays in view; an orphan's timeline (a task seen
 * only over the x-ray) counts none of the x-ray's tasks/get as its polls.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { parseRunFile } from '../../src/record/run-file.ts';
import {
  callTool,
  counted,
  openPlayground,
  readWire,
  serverStatus,
  taskCard,
  wireFromNow,
} from './playground.ts';
import { detailOf } from './task-detail-page.ts';

const header = (page: Page) => page.getByRole('banner');
const link = (page: Page) => header(page).locator('.bar [role="status"]').first();

/** Opens `tool`'s detail from its card, by keyboard, on the task's lifecycle. */
async function openDetail(page: Page, tool: string) {
  const opener = taskCard(page, tool).getByRole('button', { name: 'Statechart' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const detail = detailOf(page);
  await expect(detail).toBeVisible();
  return { detail, opener };
}

test('C8: after a restart the header says the server is up and the client waits out its backoff, not the old reason', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '40' });
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('working');
  await header(page).getByRole('button', { name: 'Kill server' }).click();
  // Backing off for a second or more: the next attempt is well ahead.
  await expect(link(page)).toContainText(/attempt ([4-9]|\d\d) in/, { timeout: 30_000 });
  await expect(page.getByTestId('link-detail')).toHaveText('the server is not running');
  // Hold the world, so the attempt cannot come before the header is read.
  const time = header(page).getByRole('group', { name: 'World time' });
  await time.getByRole('button', { name: 'Pause' }).click();
  await expect(time.getByRole('status')).toHaveText('Paused');
  await header(page).getByRole('button', { name: 'Restart server' }).click();
  await expect(link(page)).toContainText('worker #2');
  await expect(link(page)).toContainText('Reconnecting…');
  await expect(page.getByTestId('link-detail')).toHaveText('server up; retry after backoff');
  await expect(page.getByTestId('link-detail')).toHaveAttribute('title', /runs \(worker #2\)/);
  await expect(link(page)).not.toContainText('not running');
  await time.getByRole('button', { name: 'Resume' }).click();
  await expect(link(page)).toContainText('Connected as learner', { timeout: 15_000 });
  await expect(page.getByTestId('link-detail')).toHaveCount(0);
});

test('C8: the timeline counts the faults it marks, merges marks that would overlap, and each is a Tab stop named by its tooltip; Tab past the last control goes on, Esc returns to the card', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '40' });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('working');
  // A drop on its own, two polls answered, then a restart: the server killed and started at once.
  const before = await wireFromNow(page);
  await header(page).getByRole('button', { name: 'Drop connection' }).click();
  await readWire(
    page,
    counted((row) => row.direction === 'in' && row.method === 'tasks/get', 2, before),
    'two polls answered after the drop',
  );
  await header(page).getByRole('button', { name: 'Restart server' }).click();
  await expect(link(page)).toContainText('Connected as learner');
  await expect(link(page)).toContainText('worker #2');
  await expect(card).toContainText('gave up: server answered -32602', { timeout: 20_000 });

  const { detail, opener } = await openDetail(page, 'slow_compute');
  const timeline = detail.getByRole('region', { name: /^Timeline of task/ });
  const marks = timeline.getByTestId('fault-mark');
  await expect(marks.first()).toBeVisible();
  // The count is the faults the marks stand for: one each, or the number a merged mark shows.
  const perMark = await marks.evaluateAll((gs) =>
    gs.map((g) => Number(g.getAttribute('data-faults'))),
  );
  const total = perMark.reduce((a, b) => a + b, 0);
  expect(total).toBeGreaterThanOrEqual(3);
  await expect(timeline.getByTestId('timeline-faults')).toHaveText(`${total} faults`);
  expect(perMark.some((n) => n > 1)).toBe(true);
  // No mark hides another.
  const xs = await marks.evaluateAll((gs) => gs.map((g) => g.getBoundingClientRect().x));
  for (let i = 1; i < xs.length; i++) expect(xs[i]! - xs[i - 1]!).toBeGreaterThanOrEqual(8);

  // Each mark is a Tab stop whose name is its tooltip's words, shown on focus too.
  const drop = marks.first();
  await drop.focus();
  await expect(drop).toHaveAccessibleName(/^fault at \S+ link #\d+ dropped: connection dropped/);
  await expect(timeline.getByTestId('fault-tip')).toHaveText(
    (await drop.getAttribute('aria-label'))!,
  );
  // The restart's kill and start, a moment apart, are one mark naming both; Tab reaches it next.
  await page.keyboard.press('Tab');
  const restart = timeline.locator('[data-testid="fault-mark"]:not([data-faults="1"])').first();
  await expect(restart).toBeFocused();
  const name = (await restart.getAttribute('aria-label')) ?? '';
  expect(name).toMatch(/^\d+ faults: .*killed.*started/);
  await expect(timeline.getByTestId('fault-tip')).toHaveText(name);
  await expect(detail.getByRole('img', { name })).toBeVisible();

  // Tab past the detail's last control goes on to the page's first control, never <body>.
  await marks.last().focus();
  const lastTabbable = async () =>
    page.evaluate(() => {
      const all = [
        ...document.querySelectorAll<HTMLElement>(
          '#task-detail [tabindex="0"], #task-detail button',
        ),
      ];
      return all.filter((el) => !(el as HTMLButtonElement).disabled && el.checkVisibility()).at(-1)
        ?.outerHTML;
    });
  expect(await lastTabbable()).toContain('fault-mark');
  await page.keyboard.press('Tab');
  const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? 'body');
  await expect.poll(focused).toBe('Skip to the task detail');
  await expect
    .poll(() => page.evaluate(() => document.activeElement === document.body))
    .toBe(false);
  // Shift+Tab from there comes back to the detail's last control.
  await page.keyboard.press('Shift+Tab');
  await expect(marks.last()).toBeFocused();
  // The skip link, while the detail is open, lands in the detail.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(detail).toBeFocused();
  // Esc closes it and the focus is back on the card's button that opened it.
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();
  await expect(opener).toBeFocused();
});

test('at 390 px the detail leads with Close, which stays in view while the page scrolls', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '20' });
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('working');
  const { detail } = await openDetail(page, 'slow_compute');
  const close = detail.getByRole('button', { name: /^Close/ });
  const chart = detail.getByRole('region', { name: 'Task lifecycle' });
  await expect(close).toBeFocused();
  await expect(close).toBeInViewport();
  const closeBox = await close.boundingBox();
  const chartBox = await chart.boundingBox();
  expect(closeBox!.y + closeBox!.height).toBeLessThanOrEqual(chartBox!.y);
  // Scrolled down to the timeline, Close is still on screen, at the top.
  await detail.getByRole('region', { name: /^Timeline of task/ }).scrollIntoViewIfNeeded();
  await expect(close).toBeInViewport();
  expect((await close.boundingBox())!.y).toBeLessThan(120);
  await close.click();
  await expect(detail).toBeHidden();
});

test("M7: an orphan's timeline, a task seen only over the x-ray, counts none of the x-ray's tasks/get as its polls", async ({
  page,
}) => {
  const verdict = parseRunFile(readFileSync('public/runs/lost-handle.json', 'utf8'));
  if (!verdict.ok) throw new Error(verdict.error);
  const xrayGets = verdict.run.events.filter(
    (e) =>
      e.kind === 'wire' &&
      e.entry.connection === 'x-ray' &&
      e.entry.direction === 'out' &&
      JSON.stringify(e.entry.message).includes('"tasks/get"'),
  );
  expect(xrayGets.length).toBeGreaterThan(0);
  const first = xrayGets[0]!;
  const orphan =
    first.kind === 'wire'
      ? String((first.entry.message as { params?: { taskId?: string } }).params?.taskId)
      : '';

  await page.goto('/?run=runs/lost-handle.json');
  const slider = page.getByRole('slider', { name: 'Time in the run' });
  await expect(slider).toBeVisible({ timeout: 30_000 });
  await slider.fill(String(verdict.run.events.at(-1)!.at));
  const card = page.locator(`article.replay-task[data-task-id="${orphan}"]`);
  await expect(card.getByTestId('timeline-polls')).toHaveText('0 polls');
  await expect(card.getByTestId('timeline-side')).toHaveText(
    `${xrayGets.length} request${xrayGets.length === 1 ? '' : 's'} over x-ray`,
  );
});
