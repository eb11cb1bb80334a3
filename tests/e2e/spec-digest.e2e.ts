/**
 * Every rule id on screen links to the spec digest at that rule: the view
 * opens at the rule (in view, focused, marked), ids inside the digest link
 * on, and Back (the view's own link, or the browser's) returns to where the
 * link was. By mouse and by keyboard.
 */
import { expect, test, type Page } from '@playwright/test';
import { openPlayground } from './playground.ts';

const rule = (page: Page, id: string) =>
  page.getByRole('region', { name: `Rule ${id}`, exact: true });

async function showsRule(page: Page, id: string): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`[?&]view=spec&rule=${id}$`));
  await expect(rule(page, id)).toBeVisible();
  await expect(rule(page, id)).toBeInViewport();
  await expect(rule(page, id)).toBeFocused();
  await expect(rule(page, id)).toHaveAttribute('aria-current', 'true');
}

test('T2, M1: a rule id in the playground and on the myths page opens the digest at that rule; Back returns', async ({
  page,
}) => {
  await openPlayground(page);
  // The empty task list says the server alone decides (T2): the id is a link.
  await page.getByRole('region', { name: 'Tasks' }).getByRole('link', { name: 'T2' }).click();
  await showsRule(page, 'T2');
  await expect(rule(page, 'T2')).toContainText('The server alone decides, per request');
  await page.goBack();
  await expect(page.getByRole('form', { name: 'slow_compute' })).toBeVisible();

  await page.goto('/?view=myths');
  const first = page.getByRole('main').getByRole('link', { name: 'M1', exact: true }).first();
  await first.click();
  await showsRule(page, 'M1');
  await expect(rule(page, 'M1')).toContainText('tasks/result');
  await page.getByRole('link', { name: '← Back' }).click();
  await expect(page).toHaveURL(/[?&]view=myths$/);
  await expect(
    page.getByRole('main').getByRole('link', { name: 'M1', exact: true }).first(),
  ).toBeVisible();
});

test('T19: by keyboard, an id inside the digest leads on to its rule; an unknown id says so', async ({
  page,
}) => {
  await page.goto('/?view=spec&rule=T1');
  await showsRule(page, 'T1');
  // C1 cites T19 ("see T19 for the other correct deployment").
  const link = rule(page, 'C1').getByRole('link', { name: 'T19' });
  await link.focus();
  await page.keyboard.press('Enter');
  await showsRule(page, 'T19');
  await expect(rule(page, 'T19')).toContainText('Mcp-Name');
  await page.goBack();
  await expect(page).toHaveURL(/[?&]rule=T1$/);
  await expect(rule(page, 'T1')).toHaveAttribute('aria-current', 'true');

  await page.goto('/?view=spec&rule=T99');
  await expect(page.getByRole('alert')).toContainText('There is no rule T99 in the digest.');
});
