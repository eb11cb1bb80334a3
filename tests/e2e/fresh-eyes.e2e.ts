/**
 * What a newcomer tripped over on a first pass, each proven in Chromium: the
 * card a Call made is brought into view (T7: the handle comes back at once);
 * the wire log keeps following the newest message through a kill, a restart
 * and a drop (C8); the header keeps its height while reconnecting; Esc gives
 * the focus back to the card that opened the detail; the first screen never
 * names a tool before the server has listed them; a side connection's request
 * ids never read like the page's own.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard, wireRows } from './playground.ts';

const connected = (page: Page): Locator =>
  page.getByRole('status').filter({ hasText: 'Connected as learner' });

for (const width of [1440, 1024, 390]) {
  test(`T7: at ${width} px, the card a Call made is brought into view`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openPlayground(page);
    await callTool(page, 'slow_compute', { seconds: '20' });
    const card = taskCard(page, 'slow_compute');
    await expect(serverStatus(card)).toHaveText('working');
    // Without this the card sat below the call form and "Keeping tasks", out of view.
    await expect(card.locator('header')).toBeInViewport();
  });
}

/** The wire log's scroll box is at its newest row, and nothing holds it. */
async function followsNewest(page: Page): Promise<void> {
  const scroller = page.locator('.wire .scroller');
  await expect
    .poll(() =>
      scroller.evaluate((box) => box.scrollHeight - box.clientHeight - box.scrollTop <= 24),
    )
    .toBe(true);
  await expect(page.getByRole('button', { name: 'Follow new messages ↓' })).toHaveCount(0);
}

test('C8: the wire log keeps following the newest message after a kill, a restart and a drop', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '30', pollIntervalMs: '200' });
  // Enough rows that the log scrolls.
  await expect
    .poll(() => page.locator('.wire .scroller').evaluate((b) => b.scrollHeight > b.clientHeight))
    .toBe(true);
  await followsNewest(page);
  for (const [button, fault] of [
    ['Kill server', 'kill'],
    ['Restart server', 'restart'],
    ['Drop connection', 'drop'],
  ] as const) {
    const rows = page.locator(`.wire [data-fault="${fault}"]`);
    const before = await rows.count();
    await page.getByRole('button', { name: button }).click();
    // The fault's own row is drawn, and the log still shows the newest row.
    await expect(rows).toHaveCount(before + 1);
    await followsNewest(page);
  }
});

test("the header keeps its height while reconnecting, and the link's words whole, at 1440 and at 1024 px", async ({
  page,
}) => {
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '30' });
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('working');
  const header = page.locator('header.topbar');
  const link = page.getByRole('status').filter({ hasText: 'Connected as learner' });
  const heights: Record<number, number> = {};
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    heights[width] = (await header.boundingBox())?.height ?? 0;
    // The link's words are never squeezed away (the controls wrap to a second row instead).
    expect(await link.evaluate((el) => el.scrollWidth <= el.clientWidth), `${width} px`).toBe(true);
  }
  await page.getByRole('button', { name: 'Kill server' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Reconnecting…' })).toBeVisible();
  await expect(page.getByText(/attempt \d+ in/)).toBeVisible();
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(async () => (await header.boundingBox())?.height).toBe(heights[width]);
  }
});

test('at 1024 px, Esc closes the detail opened by keyboard and the focus returns to its card', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '20' });
  const card = taskCard(page, 'slow_compute');
  const opener = card.getByRole('button', { name: 'Statechart' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const detail = page.getByRole('region', { name: /^Statechart of / });
  await expect(detail).toBeVisible();
  // Walk into the detail, as a keyboard user would, before leaving it.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);
  await expect(opener).toBeFocused();
  await expect
    .poll(() => page.evaluate(() => document.activeElement === document.body))
    .toBe(false);
});

test('before tools/list has answered, the first screen names no tool (no "call a  tool")', async ({
  page,
}) => {
  // Hold the server worker's script until the first screen has been read.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/worker-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  const next = page.locator('.intro .next');
  await expect(next).toContainText('once the server has listed its tools');
  await expect(next).not.toContainText(/call a\s+tool/);
  release();
  await expect(connected(page)).toBeVisible();
  await expect(next).toContainText('call slow_compute below');
});

test('C8: a side connection numbers its requests from 1 too; its ids carry its name', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto('/?scenario=lost-handle&speed=max');
  await expect(page.getByRole('status', { name: 'Scenario run' })).toHaveText(/^Passed/, {
    timeout: 50_000,
  });
  const ids = await wireRows(page).locator('.id').allTextContents();
  const side = ids.filter((id) => id.startsWith('x-ray:'));
  expect(side.length).toBeGreaterThan(0);
  for (const id of side) expect(id).toMatch(/^x-ray:\d+$/);
  // The page's own ids keep their #n, so x-ray:1 and #1 never look alike.
  expect(ids.some((id) => /^#\d+$/.test(id))).toBe(true);
});
