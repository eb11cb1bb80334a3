/**
 * Driving the app's page in the bench parts: connect, start tasks, and
 * count each task's polls where the page meets the worker's port.
 *
 * The task list draws only the cards near view (a virtualised list), so the
 * bench cannot read every task off its card; it counts at the MessagePort
 * instead, which is also what really leaves for the worker and comes back
 * (after the simulated network).
 */
import type { Page } from '@playwright/test';

/** The task cards drawn now (only those near view; every task has a slot). */
export const CARDS = 'section[aria-labelledby="tasks-heading"] article';
/** The Tasks count: how many tasks the page follows. */
export const TASKS_COUNT = 'section[aria-labelledby="tasks-heading"] .panel-head .count';

/** What the init script counts in the page. */
interface Counted {
  /** tasks/get posted to a port since the page loaded. */
  __benchTasksGet: number;
  /** Per taskId: tasks/get answers about it that came in on a port since the page loaded. */
  __benchAnswers: Record<string, number>;
}

const instrumented = new WeakSet<Page>();

/**
 * The counting, run before the page's own scripts (a string: tsx's helpers
 * do not exist in the page). A tasks/get answer is a result naming a taskId
 * that is not a tools/call's CreateTaskResult (resultType 'task').
 */
const COUNT_IN_PAGE = `
  window.__benchTasksGet = 0;
  window.__benchAnswers = {};
  const post = MessagePort.prototype.postMessage;
  // The page's worker ports are batched: one postMessage may carry an array of messages.
  const each = (data) => (Array.isArray(data) ? data : [data]);
  MessagePort.prototype.postMessage = function (message, ...rest) {
    for (const m of each(message)) if (m?.method === 'tasks/get') window.__benchTasksGet++;
    return post.call(this, message, ...rest);
  };
  const listen = MessagePort.prototype.addEventListener;
  MessagePort.prototype.addEventListener = function (type, listener, ...rest) {
    if (type === 'message')
      listen.call(this, 'message', (event) => {
        for (const m of each(event.data)) {
          const result = m?.result;
          const taskId = result?.resultType === 'task' ? undefined : result?.taskId;
          if (typeof taskId === 'string')
            window.__benchAnswers[taskId] = (window.__benchAnswers[taskId] ?? 0) + 1;
        }
      });
    return listen.call(this, type, listener, ...rest);
  };
`;

/** Opens the app (counting as {@link Counted} says, on every load) and waits until it is connected and lists its tools. */
export async function openApp(page: Page, url: string): Promise<void> {
  if (!instrumented.has(page)) {
    instrumented.add(page);
    await page.addInitScript(COUNT_IN_PAGE);
  }
  await page.goto(url);
  await page.getByRole('status').filter({ hasText: 'Connected as learner' }).waitFor();
  await page.getByRole('button', { name: /^slow_compute\b/ }).waitFor();
}

/** How many tasks the Tasks count says the page follows. */
export async function tasksFollowed(page: Page): Promise<number> {
  return Number(await page.locator(TASKS_COUNT).textContent());
}

/**
 * Calls slow_compute `count` times, then waits until the page follows them
 * all and the server has answered a tasks/get about each (as many tasks
 * answered as followed).
 */
export async function startTasks(
  page: Page,
  count: number,
  args: { seconds: number; pollIntervalMs?: number },
  timeoutMs: number,
): Promise<void> {
  const before = await tasksFollowed(page);
  await callSlowCompute(page, count, args);
  await page.waitForFunction(
    ([selector, n]) =>
      Number(document.querySelector(selector)?.textContent) >= n &&
      Object.keys((window as unknown as Counted).__benchAnswers).length >= n,
    [TASKS_COUNT, before + count] as const,
    { timeout: timeoutMs, polling: 200 },
  );
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
  return page.evaluate(() => (window as unknown as Counted).__benchTasksGet);
}

/** Per taskId, the answers about it the page received since it loaded. */
export function answerCounts(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => ({ ...(window as unknown as Counted).__benchAnswers }));
}
