/**
 * Every registered scenario runs to all green in real Chromium, at full
 * speed, against the production build: the engine judges the real wire
 * messages and task machines, so a green run is the scenario's point shown
 * on the wire. A new scenario in the registry is tested here by itself.
 *
 * One page serves every scenario, each opened from the Scenarios list (as a
 * learner would, and each starts by resetting the stage): loading the page
 * for each would cost more than most scenarios take. A failed test gets a
 * fresh worker, so a broken page does not spill into the next scenario.
 * More runs, from their URLs, plant a wrong expectation to show red.
 */
import { expect, test as base, type Locator, type Page } from '@playwright/test';
import { scenarioById, scenarios, type ScenarioId } from '../../src/scenarios/index.ts';

const test = base.extend<object, { shared: Page }>({
  shared: [
    async ({ browser }, use) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto('/');
      await expect(
        page.getByRole('status').filter({ hasText: 'Connected as learner' }),
      ).toBeVisible();
      await use(page);
      await context.close();
    },
    { scope: 'worker' },
  ],
});

test.describe.configure({ timeout: 60_000 });

/** Uncaught errors of the shared page; each scenario must add none (a reactive read that writes state did). */
const pageErrors: string[] = [];

const panelOf = (page: Page, title: string): Locator =>
  page.getByRole('region', { name: title, exact: true });
const runStatus = (panel: Locator): Locator => panel.getByRole('status', { name: 'Scenario run' });
const expectationItems = (panel: Locator): Locator =>
  panel.getByRole('region', { name: /^Expectations/ }).getByRole('listitem');

/** Waits for the run to end, opening a second tab if a step asks for one (M5). Returns its final status line. */
async function runToEnd(page: Page, panel: Locator): Promise<string> {
  let secondTab: Page | undefined;
  await expect
    .poll(
      async () => {
        const link = panel.getByRole('link', { name: 'Open the second tab' });
        if (!secondTab && (await link.isVisible())) {
          [secondTab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
        }
        return (await runStatus(panel).textContent()) ?? '';
      },
      { timeout: 55_000, intervals: [200] },
    )
    .toMatch(/^(Passed|Failed)/);
  await secondTab?.close();
  return (await runStatus(panel).textContent()) ?? '';
}

for (const scenario of scenarios) {
  const count = scenario.steps.reduce((n, step) => n + (step.expect?.length ?? 0), 0);
  test(`${scenario.id} runs to all green (${scenario.specIds.join(', ')})`, async ({
    shared: page,
  }) => {
    const errorsBefore = pageErrors.length;
    const list = page.getByRole('list', { name: 'Scenarios' });
    if (!(await list.isVisible())) await page.getByText('Scenarios', { exact: true }).click();
    await list.getByRole('link', { name: scenario.title, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]scenario=${scenario.id}(&|$)`));
    const panel = panelOf(page, scenario.title);
    await expect(runStatus(panel)).toHaveText('Ready: press Play, or Step through it.');
    await panel.getByLabel('Speed').selectOption('max');
    await panel.getByRole('button', { name: 'Play' }).click();
    const final = await runToEnd(page, panel);
    const red = await panel.locator('li[data-status="failed"]').allTextContents();
    expect(red, `red expectations in ${scenario.id}`).toEqual([]);
    expect(final).toBe(`Passed: all ${count} expectations met.`);
    await expect(expectationItems(panel)).toHaveCount(count);
    await expect(panel.locator('li[data-status="passed"]')).toHaveCount(count);
    expect(pageErrors.slice(errorsBefore), `uncaught errors in ${scenario.id}`).toEqual([]);
  });
}

/**
 * Scenarios run once more from their URL with a wrong expectation planted, each
 * with what its last task really did: the engine must say red, and why.
 */
const PLANTED: readonly { id: ScenarioId; lastTask: string }[] = [
  { id: 'happy-path', lastTask: 'the slow_compute task ended completed (server said completed)' },
  {
    id: 'result-type',
    lastTask: 'the confirm_delete task ended completed (server said completed)',
  },
  { id: 'lost-handle', lastTask: 'the slow_compute task ended completed (server said completed)' },
  { id: 'lost-request', lastTask: 'the slow_compute task ended completed (server said completed)' },
  {
    id: 'created-not-success',
    lastTask: 'the slow_compute task ended completed (server said completed)',
  },
  {
    id: 'cluster-early-handle',
    lastTask: 'the slow_compute task ended completed (server said completed)',
  },
];

for (const { id, lastTask } of PLANTED) {
  test(`${id}: a planted wrong expectation turns red and says what it expected and what it saw`, async ({
    page,
  }) => {
    await page.goto(`/?scenario=${id}&speed=max&plant=wrong-outcome`);
    const panel = panelOf(page, scenarioById(id).title);
    const final = await runToEnd(page, panel);
    expect(final).toMatch(/^Failed: 1 of \d+ expectations not met\./);
    const planted = panel.locator('li[data-status="failed"]');
    await expect(planted).toHaveCount(1);
    await expect(planted).toContainText(
      `Expected the last task to end failed (planted on purpose by ?plant=wrong-outcome); saw ${lastTask}.`,
    );
    // Screen readers hear the verdict before the text.
    await expect(planted.locator('.sr-only')).toHaveText('failed:');
    // Everything else in the run was still judged, and met.
    const total = await expectationItems(panel).count();
    await expect(panel.locator('li[data-status="passed"]')).toHaveCount(total - 1);
  });
}
