/**
 * Page helpers shared by the e2e specs. Locators are accessible ones
 * (roles, labels, names), so the tests also prove the page is usable with
 * a keyboard and a screen reader.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** One wire log row as the page shows it. */
export interface WireRowText {
  direction: 'out' | 'in';
  method: string;
  id: string;
  taskId: string;
  gist: string;
}

export async function openPlayground(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^slow_compute\b/ })).toBeVisible();
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

export const tasksRegion = (page: Page): Locator => page.getByRole('region', { name: 'Tasks' });
export const resultsRegion = (page: Page): Locator => page.getByRole('region', { name: 'Results' });
export const taskCard = (page: Page, tool: string): Locator =>
  tasksRegion(page).getByRole('article', { name: new RegExp(`^${tool} task`) });
export const serverStatus = (card: Locator): Locator =>
  card.getByRole('status', { name: 'Server status' });

export const wireRows = (page: Page): Locator =>
  page.getByRole('list', { name: 'Wire log messages' }).getByRole('listitem');

/**
 * Reads every wire log row's cells from the DOM, in order. The log draws new
 * rows at most every 200 ms (FLUSH_EVERY_MS in src/ui/state/wire-log.svelte.ts),
 * so what a card already shows may not be drawn yet: wait out one such delay.
 */
export async function readWire(page: Page): Promise<WireRowText[]> {
  await page.waitForTimeout(250);
  return wireRows(page).evaluateAll((rows) =>
    rows.map((row) => {
      const cell = (selector: string): string =>
        row.querySelector(selector)?.textContent?.trim() ?? '';
      return {
        direction: cell('.dir [aria-hidden]') === '→' ? ('out' as const) : ('in' as const),
        method: cell('.method'),
        id: cell('.id'),
        taskId: cell('.task'),
        gist: cell('.gist'),
      };
    }),
  );
}

/** Expands row `index` (0-based) and returns its exact JSON. */
export async function rowJson(page: Page, index: number): Promise<Record<string, unknown>> {
  const row = wireRows(page).nth(index);
  const toggle = row.getByRole('button');
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
