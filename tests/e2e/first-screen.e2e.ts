/**
 * The first screen teaches: at the three widths the page is designed for,
 * the first viewport shows the protocol's five statuses and one obvious
 * first call; nothing is wider than a phone's screen; the skip link is the
 * first Tab stop; picking a tool puts the focus in its form.
 */
import { expect, test, type Page } from '@playwright/test';
import { openPlayground, serverStatus, taskCard } from './playground.ts';

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
] as const;
const STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'];

const lifecycle = (page: Page) =>
  page.getByRole('img', { name: /^The task lifecycle: working and input_required/ });

/** The box of `locator` lies wholly inside the first viewport (the page not scrolled). */
async function inFirstViewport(page: Page, what: string, locator = lifecycle(page)): Promise<void> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box, `${what} is drawn`).not.toBeNull();
  expect(box!.y, `${what} starts on screen`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what} ends above the fold`).toBeLessThanOrEqual(viewport.height);
  expect(box!.x + box!.width, `${what} fits across`).toBeLessThanOrEqual(viewport.width);
}

/** Nothing makes the page scroll sideways. */
async function noSidewaysScroll(page: Page, where: string): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }));
  expect(widths.scroll, `${where}: scrollWidth <= innerWidth`).toBeLessThanOrEqual(widths.inner);
}

for (const viewport of VIEWPORTS) {
  test(`T6, T9: at ${viewport.width}x${viewport.height} the first viewport shows the five statuses and the first call`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await openPlayground(page);
    await expect(lifecycle(page)).toBeVisible();
    await expect(lifecycle(page)).toHaveAttribute('data-statuses', STATUSES.join(' '));
    await inFirstViewport(page, 'the lifecycle drawing');
    // The first action: a task tool is picked, and a call button for it is on screen.
    await expect(page.getByRole('form', { name: 'slow_compute' })).toBeVisible();
    const call =
      viewport.width <= 720
        ? page.getByRole('button', { name: 'Call slow_compute now' })
        : page.getByRole('form', { name: 'slow_compute' }).getByRole('button', {
            name: 'Call slow_compute',
          });
    await inFirstViewport(page, 'the first call button', call);
    await call.click();
    await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('completed');
  });
}

test('nothing is wider than a 390 px screen: playground, a task, its detail, a scenario, the learning views', async ({
  page,
}) => {
  // Seven screens in one walk (a task run to completion among them): more than one screen's time.
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlayground(page);
  await noSidewaysScroll(page, 'playground');
  await page.getByRole('button', { name: 'Call slow_compute now' }).click();
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('completed');
  await noSidewaysScroll(page, 'playground with a task');
  await card.getByRole('button', { name: 'Statechart' }).click();
  await expect(page.getByRole('region', { name: /^Statechart of / })).toBeVisible();
  await noSidewaysScroll(page, 'task detail');
  await page.keyboard.press('Escape');
  for (const view of ['interview', 'myths', 'changed']) {
    await page.goto(`/?view=${view}`);
    await expect(page.locator(`main.learn[data-view="${view}"]`)).toBeVisible();
    await noSidewaysScroll(page, `?view=${view}`);
  }
  await page.goto('/?scenario=happy-path');
  await expect(page.getByRole('status', { name: 'Scenario run' })).toBeVisible();
  await noSidewaysScroll(page, 'a scenario');
});

test('the skip link is the first Tab stop and lands past the header', async ({ page }) => {
  await openPlayground(page);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the playground' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('group', { name: 'Call, tasks and results' })).toBeFocused();
  // The next stops are the lifecycle's two folds and its two rule links, then the call form: no header on the way.
  const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim());
  await page.keyboard.press('Tab');
  await expect.poll(focusedText).toBe("A task's life: five statuses");
  await page.keyboard.press('Tab');
  await expect.poll(focusedText).toBe('What each status means');
  // The "Try it" line's two rule links (T11: isError still completes; T13: deletion is no status).
  for (const id of ['T11', 'T13']) {
    await page.keyboard.press('Tab');
    await expect.poll(focusedText).toBe(id);
  }
  await page.keyboard.press('Tab');
  await expect(
    page.getByRole('form', { name: 'slow_compute' }).getByLabel('seconds', { exact: true }),
  ).toBeFocused();
});

test('picking a tool puts the focus in its form, by mouse and by keyboard', async ({ page }) => {
  await openPlayground(page);
  await page.getByRole('button', { name: /^confirm_delete\b/ }).click();
  const form = page.getByRole('form', { name: 'confirm_delete' });
  await expect(form).toBeVisible();
  const focusedInForm = () =>
    form.evaluate((el) => el.contains(document.activeElement) && document.activeElement !== el);
  await expect.poll(focusedInForm).toBe(true);

  // By keyboard: back to slow_compute; its first field has the focus, Call is three Tabs on.
  await page.getByRole('button', { name: /^slow_compute\b/ }).focus();
  await page.keyboard.press('Enter');
  const slow = page.getByRole('form', { name: 'slow_compute' });
  await expect(slow.getByLabel('seconds', { exact: true })).toBeFocused();
  for (const field of ['label', 'pollIntervalMs']) {
    await page.keyboard.press('Tab');
    await expect(slow.getByLabel(field, { exact: true })).toBeFocused();
  }
  await page.keyboard.press('Tab');
  await expect(slow.getByRole('button', { name: 'Call slow_compute' })).toBeFocused();
});
