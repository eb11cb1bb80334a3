/** Driving the Fault injection panel, shared by the e2e files that arm faults. */
import { expect, type Locator, type Page } from '@playwright/test';

export const faultPanel = (page: Page): Locator =>
  page.getByRole('region', { name: 'Fault injection' });

/** Opens one of the panel's sections ("Link conditions", "Scheduled faults", "Fault log"). */
export async function openSection(page: Page, name: string): Promise<void> {
  const summary = faultPanel(page).locator('summary').filter({ hasText: name });
  const open = await summary.evaluate((el) => (el.parentElement as HTMLDetailsElement).open);
  if (!open) await summary.click();
}

/** Arms "When <trigger>: <action>" in the panel. */
export async function armRule(page: Page, when: string, then: string): Promise<void> {
  await openSection(page, 'Scheduled faults');
  const form = faultPanel(page).getByRole('form', { name: 'Arm a fault rule' });
  await form.getByLabel('When').selectOption({ label: when });
  await form.getByLabel('Then').selectOption({ label: then });
  await form.getByRole('button', { name: 'Arm rule' }).click();
  await expect(faultPanel(page).getByRole('list', { name: 'Armed rules' })).toContainText(when);
}
