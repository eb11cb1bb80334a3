/** Driving the app's page in the bench parts: connect, start tasks, read each card's poll count. */
import type { Page } from '@playwright/test';

/** Every followed task's card. */
export const CARDS = 'section[aria-labelledby="tasks-heading"] article';

const drawingAll = new WeakSet<Page>();

/**
 * Opens the app and waits until it is connected and lists its tools. The task
 * list draws the newest 40 cards and offers the rest behind "Show more"; the
 * bench presses it as it appears (on every load, reloads included), so every
 * task's card is drawn and read: the worst case for the page.
 */
export async function openApp(page: Page, url: string): Promise<void> {
  if (!drawingAll.has(page)) {
    drawingAll.add(page);
    await page.addInitScript(() => {
      setInterval(() => document.querySelector<HTMLButtonElement>('section[aria-labelledby="tasks-heading"] button.more')?.click(), 100);
    });
  }
  await page.goto(url);
  await page.getByRole('status').filter({ hasText: 'Connected as learner' }).waitFor();
  await page.getByRole('button', { name: /^slow_compute\b/ }).waitFor();
}

/**
 * Calls slow_compute `count` times through its form, clicked in the page all
 * at once (with many tasks polling, each Playwright click gets slow), and
 * waits until every card is on screen and each task polled once.
 */
export async function startTasks(page: Page, count: number, args: { seconds: number; pollIntervalMs?: number }, timeoutMs: number): Promise<void> {
  const before = await page.locator(CARDS).count();
  await page.getByRole('button', { name: /^slow_compute\b/ }).click();
  const form = page.getByRole('form', { name: 'slow_compute' });
  await form.getByLabel('seconds', { exact: true }).fill(String(args.seconds));
  if (args.pollIntervalMs !== undefined) await form.getByLabel('pollIntervalMs', { exact: true }).fill(String(args.pollIntervalMs));
  await form.getByRole('button', { name: 'Call slow_compute' }).evaluate((button: HTMLButtonElement, n: number) => {
    for (let i = 0; i < n; i++) button.click();
  }, count);
  await page.waitForFunction(([selector, n]) => document.querySelectorAll(selector).length >= n, [CARDS, before + count] as const, { timeout: timeoutMs });
  const deadline = Date.now() + timeoutMs;
  while (Object.values(await pollCounts(page)).some((n) => n === 0)) {
    if (Date.now() > deadline) throw new Error(`not every task was polled within ${timeoutMs} ms`);
    await page.waitForTimeout(200);
  }
}

/** Each card's poll count (its "Polls" fact), by taskId. */
export function pollCounts(page: Page): Promise<Record<string, number>> {
  return page.evaluate((selector) => {
    const counts: Record<string, number> = {};
    for (const card of document.querySelectorAll(selector)) {
      const id = card.querySelector('code.task-id')?.textContent?.trim() ?? '';
      const facts = [...card.querySelectorAll('.fact')];
      const polls = facts.find((f) => f.querySelector('dt')?.textContent?.trim() === 'Polls')?.querySelector('dd')?.textContent ?? '0';
      counts[id] = Number(polls);
    }
    return counts;
  }, CARDS);
}

export function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
