/**
 * Screenshots of the scenario runner mid-run at 1280x720, in both themes
 * (`npm run screenshots`): a run playing at reading speed with expectations
 * green and pending, the drill asking, and a red expectation's text.
 */
import { expect, test } from '@playwright/test';

for (const scheme of ['light', 'dark'] as const) {
  test(`scenario runner screenshots (${scheme})`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.emulateMedia({ colorScheme: scheme });
    const shot = (name: string): Promise<Buffer> => page.screenshot({ path: `screenshots/scenario-${name}-${scheme}.png` });

    // Mid-run at reading speed: step 2 of 3 under way, step 1's expectation green, step 3's not yet checked.
    await page.goto('/?scenario=input-required-once&play');
    const panel = page.getByRole('region', { name: 'input_required, asked once', exact: true });
    const status = panel.getByRole('status', { name: 'Scenario run' });
    await expect(status).toHaveText(/step 2 of 3/i, { timeout: 30_000 });
    await expect(panel.locator('li[data-status="upcoming"]')).not.toHaveCount(0);
    await shot('1-mid-run');

    // The drill: the run waits for a guess before the step.
    await page.goto('/?scenario=ignores-cancel&drill&play');
    const drill = page.getByRole('region', { name: 'Cancelling a migration', exact: true });
    await expect(drill.getByRole('group', { name: /How does the task end\?/ })).toBeVisible({ timeout: 30_000 });
    await page.waitForTimeout(300);
    await shot('2-drill');

    // A planted wrong expectation: red, with what it expected and what it saw.
    await page.goto('/?scenario=partial-answers&speed=max&plant=wrong-outcome');
    const red = page.getByRole('region', { name: 'Partial answers, two pending inputs', exact: true });
    await expect(red.getByRole('status', { name: 'Scenario run' })).toHaveText(/^Failed/, { timeout: 30_000 });
    await shot('3-red');
  });
}
