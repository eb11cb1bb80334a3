/**
 * Page helpers shared by the e2e specs. Locators are accessible ones
 * (roles, labels, names), so the tests also prove the page is usable with
 * a keyboard and a screen reader.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** One wire log row as the page shows it. */
export interface WireRowText {
  /** Its place in the whole log (the row's `data-seq`); a drawn row's DOM index is only its place in the window. */
  seq: number;
  direction: 'out' | 'in';
  method: string;
  id: string;
  taskId: string;
  gist: string;
  /** When the page logged it, `HH:MM:SS.mmm` in local time. */
  time: string;
}

export async function openPlayground(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^slow_compute\b/ })).toBeVisible();
}

/** Presses "Call slow_compute" `count` times in the page, as a learner mashing the button would. */
export async function mashCall(page: Page, count: number): Promise<void> {
  await page
    .getByRole('form', { name: 'slow_compute' })
    .getByRole('button', { name: 'Call slow_compute' })
    .evaluate((button: HTMLButtonElement, n: number) => {
      for (let i = 0; i < n; i++) button.click();
    }, count);
}

/** Picks a tool, fills its generated form by label, and presses "Call <tool>". */
export async function callTool(
  page: Page,
  name: string,
  args: Record<string, string> = {},
): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${name}\\b`) }).click();
  const form = page.getByRole('form', { name: name });
  for (const [label, value] of Object.entries(args))
    await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByRole('button', { name: `Call ${name}` }).click();
}

/** The header's "Run" menu button (Save run, Export HAR, Copy link, Open a run…). */
export const runMenuButton = (page: Page): Locator =>
  page.getByRole('banner').getByRole('button', { name: 'Run', exact: true });

/** The Run menu's item `name`, once the menu is open. */
export const runMenuItem = (page: Page, name: string): Locator =>
  page.getByRole('menu', { name: 'Run' }).getByRole('menuitem', { name, exact: true });

/** Opens the header's Run menu and chooses `name` in it, as a mouse would. */
export async function chooseInRunMenu(page: Page, name: string): Promise<void> {
  await runMenuButton(page).click();
  await runMenuItem(page, name).click();
}

export const tasksRegion = (page: Page): Locator => page.getByRole('region', { name: 'Tasks' });
export const resultsRegion = (page: Page): Locator => page.getByRole('region', { name: 'Results' });
export const taskCard = (page: Page, tool: string): Locator =>
  tasksRegion(page).getByRole('article', { name: new RegExp(`^${tool} task`) });
export const serverStatus = (card: Locator): Locator =>
  card.getByRole('status', { name: 'Server status' });

export const wireRows = (page: Page): Locator =>
  page.getByRole('list', { name: 'Wire log messages' }).getByRole('listitem');

/** Every wire log row drawn at this moment, in order. */
function drawnWire(page: Page): Promise<WireRowText[]> {
  return wireRows(page).evaluateAll((rows) =>
    rows.map((row) => {
      const cell = (selector: string): string =>
        row.querySelector(selector)?.textContent?.trim() ?? '';
      return {
        seq: Number(row.getAttribute('data-seq')),
        direction: cell('.dir [aria-hidden]') === '→' ? ('out' as const) : ('in' as const),
        method: cell('.method'),
        id: cell('.id'),
        taskId: cell('.task'),
        gist: cell('.gist'),
        time: cell('.time'),
      };
    }),
  );
}

/**
 * The wire log rows once `ready(rows)` holds, retried until it does (the
 * expect timeout unless `options` says otherwise, then a failure naming `what`). The log draws new rows at
 * most every 200 ms (FLUSH_EVERY_MS in src/ui/state/wire-log.svelte.ts), so
 * what a card already shows may not be drawn yet: each caller waits for the
 * rows it then asserts on. A check that something is absent, or that every
 * row of a kind agrees, waits for a row that comes after them all (the
 * answer that ended the task, say): rows are drawn in the order they were
 * logged, so every earlier one is drawn by then.
 */
export async function readWire(
  page: Page,
  ready: (rows: readonly WireRowText[]) => boolean,
  what = 'the wire log rows the test waits for',
  options: { timeout?: number } = {},
): Promise<WireRowText[]> {
  let rows: WireRowText[] = [];
  await expect
    .poll(
      async () => {
        rows = await drawnWire(page);
        return ready(rows);
      },
      { message: `waiting for ${what}`, ...options },
    )
    .toBe(true);
  return rows;
}

/** `ready` for {@link readWire}: a row matching each of `matches` is drawn (in any order). */
export const drawn =
  (...matches: (Partial<WireRowText> & { gistStarts?: string })[]) =>
  (rows: readonly WireRowText[]): boolean =>
    matches.every((match) => findRow(rows, match) > -1);

/** `ready` for {@link readWire}: at least `count` rows logged after seq `after` pass `keep`. */
export const counted =
  (keep: (row: WireRowText) => boolean, count: number, after = -1) =>
  (rows: readonly WireRowText[]): boolean =>
    rows.filter((row) => row.seq > after && keep(row)).length >= count;

/**
 * A boundary in the wire log: every row whose seq is above the one returned
 * was logged after this call. Waits for the log to draw one more row, since a
 * draw after the call draws every row logged before it; so it needs traffic
 * (a task being polled).
 */
export async function wireFromNow(page: Page): Promise<number> {
  const newest = async (): Promise<number> => (await drawnWire(page)).at(-1)?.seq ?? -1;
  const before = await newest();
  let after = before;
  await expect
    .poll(async () => (after = await newest()), {
      message: 'waiting for the wire log to draw a row logged after this moment',
    })
    .toBeGreaterThan(before);
  return after;
}

/**
 * Like {@link readWire}, for a watch longer than the log's drawn window
 * (while following, only the newest rows are drawn): the rows drawn at each
 * retry are gathered by seq, and `ready` sees every row drawn since this call
 * began, in log order. A row logged and slid out between two retries is not
 * in it; retries come at most a second apart, and the window holds many more
 * rows than a second of one task's polls.
 */
export async function collectWire(
  page: Page,
  ready: (rows: readonly WireRowText[]) => boolean,
  what: string,
  options: { timeout?: number } = {},
): Promise<WireRowText[]> {
  const seen = new Map<number, WireRowText>();
  let rows: WireRowText[] = [];
  await expect
    .poll(
      async () => {
        for (const row of await drawnWire(page)) seen.set(row.seq, row);
        rows = [...seen.values()].sort((a, b) => a.seq - b.seq);
        return ready(rows);
      },
      { message: `waiting for ${what}`, ...options },
    )
    .toBe(true);
  return rows;
}

/** Ms from wire log time `from` to `to` (both `HH:MM:SS.mmm`, as the log shows them; across midnight too). */
export function msBetween(from: string, to: string): number {
  const ms = (time: string): number => {
    const [h, m, s] = time.split(':').map(Number) as [number, number, number];
    return ((h * 60 + m) * 60 + s) * 1000;
  };
  const day = 24 * 3600 * 1000;
  return (((ms(to) - ms(from)) % day) + day) % day;
}

/**
 * Expands a row and returns its exact JSON: `row` as {@link readWire} read it (found again by its
 * seq, wherever the window has slid since), or a drawn row's 0-based index when the log is still.
 */
export async function rowJson(
  page: Page,
  which: number | WireRowText,
): Promise<Record<string, unknown>> {
  const row =
    typeof which === 'number'
      ? wireRows(page).nth(which)
      : wireRows(page).and(page.locator(`[data-seq="${which.seq}"]`));
  const toggle = row.locator('button[aria-expanded]');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const text = await row.locator('pre').textContent();
  return JSON.parse(text ?? 'null') as Record<string, unknown>;
}

/** Index of the first row at or after `from` matching `match`, or -1. */
export function findRow(
  rows: readonly WireRowText[],
  match: Partial<WireRowText> & { gistStarts?: string },
  from = 0,
): number {
  for (let i = from; i < rows.length; i++) {
    const row = rows[i]!;
    if (match.direction && row.direction !== match.direction) continue;
    if (match.method && row.method !== match.method) continue;
    if (match.taskId && row.taskId !== match.taskId) continue;
    if (match.gist !== undefined && row.gist !== match.gist) continue;
    if (match.gistStarts !== undefined && !row.gist.startsWith(match.gistStarts)) continue;
    return i;
  }
  return -1;
}
