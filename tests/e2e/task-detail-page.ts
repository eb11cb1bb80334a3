/**
 * The task detail ("Statechart of …") as the e2e specs open it: from a
 * card's Statechart button, on the follower machine's chart.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { taskCard } from './playground.ts';

export const detailOf = (page: Page): Locator =>
  page.getByRole('region', { name: /^Statechart of / });
export const chartOf = (detail: Locator): Locator =>
  detail.getByRole('img', { name: /^Statechart of the task machine/ });

/** Opens `tool`'s task detail on "How this client follows it" and waits for its chart. */
export async function openStatechart(
  page: Page,
  tool: string,
): Promise<{ detail: Locator; taskId: string }> {
  const card = taskCard(page, tool);
  const taskId = ((await card.locator('.task-id').textContent()) ?? '').trim();
  const toggle = card.getByRole('button', { name: 'Statechart' });
  await toggle.click();
  const detail = detailOf(page);
  await expect(detail).toBeVisible();
  await expect(detail).toHaveAttribute('data-task-id', taskId);
  // The detail opens on the task's lifecycle; the client's machine is one click away, and stays chosen.
  const follower = detail.getByRole('button', { name: 'How this client follows it' });
  if ((await follower.getAttribute('aria-pressed')) !== 'true') await follower.click();
  // The first chart of a page starts the layout worker: slow on a busy machine.
  await expect(chartOf(detail)).toBeVisible({ timeout: 30_000 });
  return { detail, taskId };
}
