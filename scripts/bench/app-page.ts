/** Driving the app's page in the bench parts: connect, start tasks, read each card's poll count. */
import type { Page } from '@playwright/test';

/** Every followed task's card. */
export const CARDS = 'section[aria-labelledby="tasks-heading"] article';

const instrumented = new WeakSet<Page>();

/**
 * Opens the app and waits until it is connected and lists its tools.
 *
 * Every page counts the tasks/get requests it hands to a MessagePort (what
 * really leaves for the worker, after the simulated network) in
 * `window.__benchTasksGet`. The task list draws the newest 40 cards and
 * offers the rest behind "Show more"; with `drawAll` (the default) the bench
 * presses it as it appears, on every load, reloads included, so every task's
 * card is drawn and can be read: the worst case for the page.
 */
export async function openApp(
  page: Page,
  url: string,
  { drawAll = true }: { drawAll?: boolean } = {},
): Promise<void> {
  if (!instrumented.has(page)) {
    instrumented.add(page);
    await page.addInitScript((pressShowMore: boolean) => {
      const counted = window as unknown as { __benchTasksGet: number };
      counted.__benchTasksGet = 0;
      const post = MessagePort.prototype.postMessage;
      MessagePort.prototype.postMessage = function (
        this: MessagePort,
        message: unknown,
        ...rest: unknown[]
      ) {
        if ((message as { method?: unknown } | null)?.method === 'tasks/get')
          counted.__benchTasksGet++;
        return (post as (...args: unknown[]) => void).call(this, message, ...rest);
      } as typeof MessagePort.prototype.postMessage;
      if (pressShowMore)
        setInterval(
          () =>
            document
              .querySelector<HTMLButtonElement>(
                'section[aria-labelledby="tasks-heading"] button.more',
              )
              ?.click(),
          100,
        );
    }, drawAll);
  }
  await page.goto(url);
  await page.getByRole('status').filter({ hasText: 'Connected as learner' }).waitFor();
  await page.getByRole('button', { name: /^slow_compute\b/ }).waitFor();
}

/** Calls slow_compute `count` times, then waits until every card is on screen and each task polled once. */
export async function startTasks(
  page: Page,
  count: number,
  args: { seconds: number; pollIntervalMs?: number },
  timeoutMs: number,
): Promise<void> {
  const before = await page.locator(CARDS).count();
  await callSlowCompute(page, count, args);
  await page.waitForFunction(
    ([selector, n]) => document.querySelectorAll(selector).length >= n,
    [CARDS, before + count] as const,
    { timeout: timeoutMs },
  );
  const deadline = Date.now() + timeoutMs;
  while (Object.values(await pollCounts(page)).some((n) => n === 0)) {
    if (Date.now() > deadline) throw new Error(`not every task was polled within ${timeoutMs} ms`);
    await page.waitForTimeout(200);
  }
}

/** Calls slow_compute `count` times through its form, clicked in the page all at once (with many tasks polling, each Playwright click gets slow). */
async function callSlowCompute(
  page: Page,
  count: number,
  args: { seconds: number; pollIntervalMs?: number },
): Promise<void> {
  await page.getByRole('button', { name: /^slow_compute\b/ }).click();
  const form = page.getByRole('form', { name: 'slow_compute' });
  await form.getByLabel('seconds', { exact: true }).fill(String(args.seconds));
  if (args.pollIntervalMs !== undefined)
    await form.getByLabel('pollIntervalMs', { exact: true }).fill(String(args.pollIntervalMs));
  await form
    .getByRole('button', { name: 'Call slow_compute' })
    .evaluate((button: HTMLButtonElement, n: number) => {
      for (let i = 0; i < n; i++) button.click();
    }, count);
}

/** How many tasks/get the page has sent to the worker since it loaded. */
export function tasksGetSent(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __benchTasksGet: number }).__benchTasksGet);
}

/**
 * Calls slow_compute `count` times, as {@link startTasks} does, on a page that
 * draws only the newest cards: waits until the Tasks count says they are all
 * followed and the page has sent at least one tasks/get per task.
 */
export async function startTasksUndrawn(
  page: Page,
  count: number,
  args: { seconds: number; pollIntervalMs?: number },
  timeoutMs: number,
): Promise<void> {
  const countBadge = 'section[aria-labelledby="tasks-heading"] .panel-head .count';
  const before = Number(await page.locator(countBadge).textContent());
  const sentBefore = await tasksGetSent(page);
  await callSlowCompute(page, count, args);
  await page.waitForFunction(
    ([selector, n, sent]) =>
      Number(document.querySelector(selector)?.textContent) >= n &&
      (window as unknown as { __benchTasksGet: number }).__benchTasksGet >= sent,
    [countBadge, before + count, sentBefore + count] as const,
    { timeout: timeoutMs, polling: 200 },
  );
}

/** Each card's poll count (its "Polls" fact), by taskId. */
export function pollCounts(page: Page): Promise<Record<string, number>> {
  return page.evaluate((selector) => {
    const counts: Record<string, number> = {};
    for (const card of document.querySelectorAll(selector)) {
      const id = card.querySelector('code.task-id')?.textContent?.trim() ?? '';
      const facts = [...card.querySelectorAll('.fact')];
      const polls =
        facts
          .find((f) => f.querySelector('dt')?.textContent?.trim() === 'Polls')
          ?.querySelector('dd')?.textContent ?? '0';
      counts[id] = Number(polls);
    }
    return counts;
  }, CARDS);
}
