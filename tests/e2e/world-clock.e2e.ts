/**
 * Pause time, live in Chromium: the header's Pause holds every timer of the
 * page, the network and the server worker, so no tasks/get leaves while it
 * is paused; Resume brings the polls back at the interval the server asked
 * for (T12). A breakpoint on tasks/cancel pauses the world with the cancel
 * in flight: the wire log shows it sent and not answered (T17).
 */
import { expect, test, type Page } from '@playwright/test';
import {
  callTool,
  collectWire,
  counted,
  drawn,
  msBetween,
  openPlayground,
  readWire,
  serverStatus,
  taskCard,
  type WireRowText,
} from './playground.ts';

const header = (page: Page) => page.getByRole('banner');
const timeControl = (page: Page) => header(page).getByRole('group', { name: 'World time' });
const POLL_INTERVAL_MS = 1000;

const isGet = (row: WireRowText) => row.direction === 'out' && row.method === 'tasks/get';
const isGetAnswer = (row: WireRowText) => row.direction === 'in' && row.method === 'tasks/get';

/** Waits `ms` of wall time while `count()` stays at `expected`; fails as soon as it moves. */
async function holdsFor(count: () => Promise<number>, expected: number, ms: number): Promise<void> {
  const started = Date.now();
  await expect
    .poll(
      async () => {
        if ((await count()) !== expected) return 'moved';
        return Date.now() - started >= ms ? 'held' : 'holding';
      },
      { timeout: ms + 5000, intervals: [250], message: `the count stays ${expected} for ${ms} ms` },
    )
    .toBe('held');
}

test.beforeEach(async ({ page }) => {
  // 5 s of pause on top of a task's polls: more than the default 30 s on a loaded machine.
  test.setTimeout(60_000);
  await openPlayground(page);
});

test('T12: paused, no tasks/get leaves for 5 s of wall time; resumed, polls come back at pollIntervalMs', async ({
  page,
}) => {
  await callTool(page, 'slow_compute', {
    seconds: '60',
    pollIntervalMs: String(POLL_INTERVAL_MS),
  });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('working');
  // Pause just after an answer, so no poll is on its way to the log.
  await readWire(page, (rows) => rows.filter(isGetAnswer).length >= 2, 'two polls answered');
  const time = timeControl(page);
  await time.getByRole('button', { name: 'Pause' }).click();
  await expect(time.getByRole('status')).toHaveText('Paused');
  await expect(time.getByRole('button', { name: 'Resume' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // World time stands still: the header says how far behind wall time it falls, in words.
  const lag = time.getByTestId('world-lag');
  await expect(lag).toHaveText(/^world \d+(\.\d)? s behind wall$/);
  await expect(lag).toHaveAttribute('title', /^World time \d\d:\d\d:\d\d\.\d, wall time /);

  // The newest tasks/get drawn, by its place in the whole log.
  const lastGet = async () => (await readWire(page, () => true)).filter(isGet).at(-1)?.seq ?? -1;
  // A poll sent just before the click is drawn a frame or more later (on a loaded machine, after
  // "Paused" shows): the newest is read once two reads half a second apart agree.
  let before = await lastGet();
  const settled = async () => {
    const newest = await lastGet();
    const same = newest === before;
    before = newest;
    return same;
  };
  await expect.poll(settled, { intervals: [500], timeout: 5000 }).toBe(true);
  await holdsFor(lastGet, before, 5000);

  await time.getByRole('button', { name: 'Resume' }).click();
  await expect(time.getByRole('status')).toBeHidden(); // Running at 1x: no state to show.
  // Nothing catches up: the world stays 5 s or more behind, and the header says so.
  await expect(lag).toHaveText(/^world ([5-9]\.\d|\d\d) s behind wall$/);
  const rows = await collectWire(
    page,
    (rows) => rows.some((r) => r.seq === before) && counted(isGet, 3, before)(rows),
    'the last poll before the pause and three after the resume',
  );
  const gets = rows.filter((r) => isGet(r) && r.seq >= before).slice(0, 4);
  expect(gets).toHaveLength(4);
  // The log's times are world time: across the pause, the poll came an interval after the last one,
  // the 5 s of wall time in between not counted; after it, one interval apart (T12). The upper
  // bounds are loose: a loaded machine delays timers, never brings them forward.
  for (let i = 1; i < gets.length; i++) {
    const gap = msBetween(gets[i - 1]!.time, gets[i]!.time);
    expect(gap).toBeGreaterThanOrEqual(POLL_INTERVAL_MS);
    expect(gap).toBeLessThan(3 * POLL_INTERVAL_MS);
  }
});

test('T17: a breakpoint on tasks/cancel pauses the world with the cancel in flight: sent, not answered', async ({
  page,
}) => {
  const time = timeControl(page);
  // The summary: the word, and a count once one is set.
  const breakpoints = time.locator('summary');
  await breakpoints.click();
  await time.getByLabel('Pause when a tasks/cancel is in flight').check();
  await expect(breakpoints).toHaveText(/Breakpoints\s*\(1\)/);
  await page.keyboard.press('Escape');
  await expect(time.getByLabel('Pause when a tasks/cancel is in flight')).toBeHidden();

  await callTool(page, 'slow_compute', { seconds: '60' });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('working');
  await card.getByRole('button', { name: 'Cancel task' }).click();
  await expect(time.getByRole('status')).toHaveText('Paused');
  await readWire(page, drawn({ direction: 'out', method: 'tasks/cancel' }), 'the cancel sent');
  const answers = async () =>
    (await readWire(page, () => true)).filter(
      (r) => r.direction === 'in' && r.method === 'tasks/cancel',
    ).length;
  await holdsFor(answers, 0, 2000);
  await expect(serverStatus(card)).toHaveText('working');

  // Alt+P, the shortcut, resumes: the cancel arrives and is answered.
  await page.keyboard.press('Alt+KeyP');
  await expect(time.getByRole('status')).toBeHidden(); // Running at 1x: no state to show.
  await readWire(page, drawn({ direction: 'in', method: 'tasks/cancel' }), 'the cancel answered');
  await expect(serverStatus(card)).toHaveText('cancelled');
});

test('breakpoints: one on tasks/get pauses at its every request and answer, and Resume says so: "pauses again at the next tasks/get"', async ({
  page,
}) => {
  const time = timeControl(page);
  await time.locator('summary').click();
  await time.getByLabel('method').fill('tasks/get');
  await time.getByRole('button', { name: 'Add breakpoint' }).click();
  await page.keyboard.press('Escape');

  await callTool(page, 'slow_compute', { seconds: '60' });
  const pausedAt = page.getByTestId('paused-at');
  await expect(pausedAt).toContainText('tasks/get sent');
  const resume = time.getByRole('button', {
    name: 'Resume (pauses again at the next tasks/get, sent or answered)',
    exact: true,
  });
  await expect(resume).toHaveAttribute(
    'title',
    /the breakpoint still set pauses it again at the next tasks\/get, sent or answered$/,
  );
  // Resumed, it runs on to the answer and pauses there, as it said.
  await resume.click();
  await expect(pausedAt).toContainText('tasks/get answered');

  // Removed, the next Resume is only that.
  await time.locator('summary').click();
  await time.getByRole('button', { name: /^Remove breakpoint/ }).click();
  await page.keyboard.press('Escape');
  await expect(time.getByRole('button', { name: 'Resume', exact: true })).toBeVisible();
});
