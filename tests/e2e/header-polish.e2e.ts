/**
 * The header as a newcomer meets it: one row at 1440 px (with the world
 * behind wall time and a breakpoint set too, the link's words and the
 * protocol line whole; paused at a breakpoint, "Connected as learner"
 * whole and the row no taller), whose Drop / Kill / Restart show a short word under
 * their full names; Breakpoints named in words; a kill with no request in
 * flight not read as "Connected"; on a phone, a pause said at the foot of
 * the screen once the header has scrolled away; a file dragged over the
 * page covers the whole window.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { callTool, openPlayground } from './playground.ts';

const header = (page: Page): Locator => page.getByRole('banner');
const link = (page: Page): Locator => header(page).locator('.bar [role="status"]').first();
const time = (page: Page): Locator => header(page).getByRole('group', { name: 'World time' });
/** The line under the brand naming the protocol version and the tasks extension. */
const protocolLine = (page: Page): Locator => header(page).locator('.brand p');

/** The vertical middle of what `locator` draws. */
async function middle(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not drawn');
  return box.y + box.height / 2;
}

test('at 1440 px the header is one row: brand, views, Run, time, the link and Drop / Kill / Restart (full names, tooltips)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  const bar = header(page);
  const drop = bar.getByRole('button', { name: 'Drop connection', exact: true });
  const kill = bar.getByRole('button', { name: 'Kill server', exact: true });
  const restart = bar.getByRole('button', { name: 'Restart server', exact: true });
  await expect(drop).toHaveText('Drop');
  await expect(kill).toHaveText('Kill');
  await expect(restart).toHaveText('Restart');
  await expect(kill).toHaveAttribute('title', /^Kill server: stops the server worker/);
  // Breakpoints says its name, not a dot that reads as "record".
  await expect(time(page).locator('summary')).toHaveText('Breakpoints');
  const parts = [
    bar.getByRole('heading', { name: 'MCP Tasks Playground' }),
    bar.getByRole('navigation'),
    bar.getByRole('button', { name: 'Run', exact: true }),
    time(page).getByRole('button', { name: 'Pause' }),
    time(page).locator('summary'),
    link(page),
    drop,
    kill,
    restart,
  ];
  const middles = await Promise.all(parts.map(middle));
  expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(12);
  expect((await bar.boundingBox())?.height).toBeLessThan(70);
  // The link's words are whole in that row, and so is the protocol line under the brand.
  expect(await link(page).evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expect(protocolLine(page)).toHaveText(/2026-07-28/);
  expect(await protocolLine(page).evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
});

test('at 1440 px with the world behind wall time and a breakpoint set, the header stays one row and says "worker #1" whole', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  const bar = header(page);
  await time(page).getByRole('button', { name: 'Pause' }).click();
  await time(page).locator('summary').click();
  await time(page).getByLabel('Pause when a tasks/cancel is in flight').check();
  await expect(time(page).locator('summary')).toHaveText(/Breakpoints\s*\(1\)/);
  await page.keyboard.press('Escape');
  await time(page).getByRole('button', { name: 'Resume' }).click();
  await expect(time(page).getByTestId('world-lag')).toHaveText(/behind wall$/);
  await expect(link(page)).toContainText('Connected as learner');
  const parts = [
    bar.getByRole('heading', { name: 'MCP Tasks Playground' }),
    bar.getByRole('navigation'),
    time(page).locator('summary'),
    time(page).getByTestId('world-lag'),
    link(page),
    bar.getByRole('button', { name: 'Restart server', exact: true }),
  ];
  const middles = await Promise.all(parts.map(middle));
  expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(12);
  expect((await bar.boundingBox())?.height).toBeLessThan(70);
  // Every word of the link is drawn whole: none is cut or ellipsized.
  const worker = link(page).getByText('worker #1', { exact: true });
  await expect(worker).toBeVisible();
  for (const words of [link(page).getByText('Connected as learner'), worker]) {
    const box = await words.boundingBox();
    const linkBox = await link(page).boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(linkBox!.x + linkBox!.width + 0.5);
    expect(await words.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }
  // The brand has less room with the lag shown (240 px): the protocol line is whole still.
  expect(await protocolLine(page).evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
});

test('layout: T17: at 1440 px paused at a breakpoint, "Connected as learner" reads whole and the header keeps its one row (58 px)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  const bar = header(page);
  const oneRow = (await bar.boundingBox())!.height;
  await time(page).locator('summary').click();
  await time(page).getByRole('combobox', { name: 'method' }).fill('tasks/get');
  await time(page).getByRole('button', { name: 'Add breakpoint' }).click();
  await page.keyboard.press('Escape');
  await callTool(page, 'slow_compute', { seconds: '5' });
  await expect(time(page).getByTestId('paused-at')).toHaveText('at breakpoint tasks/get sent');
  await expect(link(page)).toContainText('Connected as learner');
  const words = link(page).getByText('Connected as learner', { exact: true });
  expect(await words.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const box = (await words.boundingBox())!;
  const linkBox = (await link(page).boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(linkBox.x + linkBox.width + 0.5);
  expect(await link(page).evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  // One row still: no taller than with nothing paused, 58 px (to the pixel).
  expect(oneRow).toBeLessThan(59);
  expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(oneRow + 0.5);
});

test('at 390 px the Breakpoints panel opens inside the window, paused or not, and Esc closes it after Add breakpoint', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlayground(page);
  const panel = time(page).locator('.panel');
  /** The panel's box lies inside the window, with its first checkbox in reach. */
  const insideWindow = async () => {
    const box = await panel.boundingBox();
    return box !== null && box.x >= 0 && box.x + box.width <= 390;
  };
  await time(page).locator('summary').click();
  await expect(panel).toBeVisible();
  await expect.poll(insideWindow).toBe(true);
  await page.keyboard.press('Escape');
  // Paused, the header takes another row on a phone: the panel still opens inside the window.
  await time(page).getByRole('button', { name: 'Pause' }).click();
  await time(page).locator('summary').click();
  await expect.poll(insideWindow).toBe(true);
  await time(page).getByLabel('Pause when a tasks/cancel is in flight').check();
  await time(page).getByRole('combobox', { name: 'method' }).fill('tasks/get');
  await time(page).getByRole('button', { name: 'Add breakpoint' }).click();
  await expect(time(page).locator('summary')).toHaveText(/Breakpoints\s*\(2\)/);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(time(page).locator('summary')).toBeFocused();
});

/** Whether the focus is inside the Breakpoints disclosure (its summary or its panel). */
const focusInBreakpoints = (page: Page): Promise<boolean> =>
  time(page)
    .locator('details')
    .evaluate((details) => details.contains(document.activeElement));

/** Whether `locator` is what a press at its middle lands on (nothing drawn over it). */
const uncovered = (locator: Locator): Promise<boolean> =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return el.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
  });

test('keyboard: at 390 px a Tab past the Breakpoints panel closes it, so Drop connection, which it covered, takes the focus in sight; a press outside closes it; Esc inside still closes it onto its summary', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlayground(page);
  const summary = time(page).locator('summary');
  const panel = time(page).locator('.panel');
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(time(page).getByLabel('Pause when a tasks/cancel is in flight')).toBeVisible();
  // Tab through the panel's fields (a handful) until the focus leaves it.
  for (let presses = 0; presses < 20 && (await focusInBreakpoints(page)); presses++)
    await page.keyboard.press('Tab');
  expect(await focusInBreakpoints(page)).toBe(false);
  await expect(panel).toBeHidden();
  const drop = header(page).getByRole('button', { name: 'Drop connection', exact: true });
  await expect(drop).toBeFocused();
  expect(await uncovered(drop)).toBe(true);

  // A press outside the open panel, on nothing focusable, closes it.
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(panel).toBeVisible();
  await page.mouse.click(195, 830);
  await expect(panel).toBeHidden();

  // Kept: Esc with the focus inside closes the panel and puts the focus back on its summary.
  await summary.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  expect(await focusInBreakpoints(page)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(summary).toBeFocused();
});

test('keyboard: at 1440 px a press outside the open Breakpoints panel closes it, uncovering "What changed"', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  const panel = time(page).locator('.panel');
  await time(page).locator('summary').click();
  await expect(time(page).getByLabel('Pause when a tasks/cancel is in flight')).toBeVisible();
  await header(page).getByRole('heading', { name: 'MCP Tasks Playground' }).click();
  await expect(panel).toBeHidden();
  expect(await uncovered(page.getByRole('button', { name: 'What changed' }))).toBe(true);
});

test('C8: a kill with no request in flight: the link says the server is stopped, not "Connected"', async ({
  page,
}) => {
  await openPlayground(page);
  await header(page).getByRole('button', { name: 'Kill server' }).click();
  await expect(link(page)).toContainText('Server stopped');
  await expect(link(page)).not.toContainText('Connected');
  await expect(page.getByTestId('link-detail')).toHaveText('client not told yet');
  await expect(page.getByTestId('link-detail')).toHaveAttribute('title', /next request fails/);
  await header(page).getByRole('button', { name: 'Restart server' }).click();
  await expect(link(page)).toContainText('worker #2');
  await expect(link(page)).toContainText(/Connected as learner|Reconnecting…/);
  await expect(link(page)).not.toContainText('Server stopped');
});

test('at 390 px a pause is said at the foot of the screen, with Resume, once the header has scrolled away', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await openPlayground(page);
  await time(page).getByRole('button', { name: 'Pause' }).click();
  await expect(time(page).getByRole('status')).toHaveText('Paused');
  const notice = page.getByRole('region', { name: 'World paused' });
  // The header is in view and says it: no second notice.
  await expect(notice).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(time(page)).not.toBeInViewport();
  await expect(notice).toBeInViewport();
  await expect(notice).toContainText('World paused');
  await notice.getByRole('button', { name: 'Resume' }).click();
  await expect(time(page).getByRole('status')).toBeHidden();
  await expect(notice).toHaveCount(0);
});

test('a file dragged over the page at 1440 px: the drop overlay covers the whole window', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File(['{}'], 'run.json', { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, cancelable: true }));
  });
  const overlay = page.getByText('Drop a run file to replay it');
  await expect(overlay).toBeVisible();
  const box = await overlay.boundingBox();
  // Inset 12 px on every side of the 1440 x 900 window.
  expect(box).toEqual({ x: 12, y: 12, width: 1416, height: 876 });
});
