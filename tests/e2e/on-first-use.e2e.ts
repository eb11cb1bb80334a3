/**
 * What the Run menu, a dropped run file and a task's card need loads on first
 * use, not with the page (issue 16: the first screen's JS under 150 KB gzip),
 * and nothing is lost for it: a file dropped while the replay opener's code is
 * still on its way opens once it arrives, a task called meanwhile gets its
 * card once the card's code comes; a chunk that cannot be fetched is said in
 * words, the live page stays as it was, and the next try loads it.
 */
import { expect, test, type Page } from '@playwright/test';
import { serializeRunFile } from '../../src/record/run-file.ts';
import { cancelRaceRun } from '../unit/replay/run-fixture.ts';
import { callTool, chooseInRunMenu, openPlayground, serverStatus, taskCard } from './playground.ts';

const OPENER_CHUNK = '**/assets/replay-opener.svelte-*.js';
const SHARING_CHUNK = '**/assets/run-sharing-*.js';
const TASK_CARD_CHUNK = '**/assets/TaskCard-*.js';
const CALL_LIST_CHUNK = '**/assets/CallList-*.js';
const replayBar = (page: Page) => page.getByRole('region', { name: 'Replay' });

/** Drags `text` as a file named `name` over the window and drops it, as a file manager would. */
async function dropRunFile(page: Page, name: string, text: string): Promise<void> {
  await page.evaluate(
    ([name, text]) => {
      const data = new DataTransfer();
      data.items.add(new File([text!], name!, { type: 'application/json' }));
      window.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, cancelable: true }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, cancelable: true }));
    },
    [name, text],
  );
}

test('a run file dropped while the opener is still loading is not lost: it shows as loading, then opens', async ({
  page,
}) => {
  await openPlayground(page);
  // Hold the opener's chunk back until the drop has happened.
  let release!: () => void;
  const dropped = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  await page.route(OPENER_CHUNK, async (route) => {
    asked++;
    await dropped;
    await route.continue();
  });
  await dropRunFile(page, 'cancel-race.json', serializeRunFile(cancelRaceRun()));
  await expect(page.getByRole('status').filter({ hasText: 'cancel-race.json' })).toBeVisible();
  await expect.poll(() => asked).toBe(1);
  release();
  await expect(replayBar(page).getByText('Replay of cancel-race.json')).toBeVisible();
});

test("the opener's code fails to load: the drop says so, the live page stays, the next drop opens it", async ({
  page,
}) => {
  await openPlayground(page);
  await page.route(OPENER_CHUNK, (route) => route.abort('internetdisconnected'));
  const run = serializeRunFile(cancelRaceRun());
  await dropRunFile(page, 'cancel-race.json', run);
  const alert = page.getByRole('alert').filter({ hasText: 'cannot be replayed' });
  await expect(alert).toContainText("the replay's code could not be loaded");
  await expect(replayBar(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^slow_compute\b/ })).toBeVisible();

  await page.unroute(OPENER_CHUNK);
  await dropRunFile(page, 'cancel-race.json', run);
  await expect(replayBar(page).getByText('Replay of cancel-race.json')).toBeVisible();
  await expect(alert).toHaveCount(0);
});

test("the Run menu's actions fail to load: Copy link says so and stays; once they load it copies", async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openPlayground(page);
  await page.route(SHARING_CHUNK, (route) => route.abort('internetdisconnected'));
  await chooseInRunMenu(page, 'Copy link');
  const note = page.getByTestId('run-share-status');
  await expect(note).toContainText('Could not copy the link:');

  await page.unroute(SHARING_CHUNK);
  await chooseInRunMenu(page, 'Copy link');
  await expect(note).toContainText('Link copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/[?&]seed=\d+/);
});

test('loading: a task card whose code is slow to come says so in the task list, then the card comes and shows the task to its end', async ({
  page,
}) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(TASK_CARD_CHUNK, async (route) => {
    await held;
    await route.continue();
  });
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '1' });
  const tasks = page.getByRole('region', { name: 'Tasks', exact: true });
  await expect(tasks.getByRole('status')).toHaveText('Loading the task cards…');
  release();
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('completed', {
    timeout: 20_000,
  });
  await expect(tasks.getByText('Loading the task cards…')).toHaveCount(0);
});

test("loading: the task card's code fails to load: the list says so, and Try again draws the card with the focus kept", async ({
  page,
}) => {
  await page.route(TASK_CARD_CHUNK, (route) => route.abort('internetdisconnected'));
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '1' });
  const tasks = page.getByRole('region', { name: 'Tasks', exact: true });
  // A plain sentence, not the browser's words with the asset's URL (those wait under a disclosure).
  await expect(tasks.getByRole('alert').locator('p')).toHaveText(
    'The task cards could not be loaded: the network or the server did not answer.',
  );
  const browserSaid = tasks.getByRole('alert').locator('details');
  await expect(browserSaid).not.toHaveAttribute('open');
  await browserSaid.locator('summary').click();
  await expect(browserSaid).toContainText('/assets/TaskCard-');

  await page.unroute(TASK_CARD_CHUNK);
  await tasks.getByRole('button', { name: 'Try again' }).focus();
  await page.keyboard.press('Enter');
  await expect(taskCard(page, 'slow_compute')).toBeVisible();
  await expect(tasks.getByRole('alert')).toHaveCount(0);
  await expect(tasks.getByRole('heading', { name: 'Tasks', exact: true })).toBeFocused();
});

test("loading: the results list's code fails to load: Results says so, and Try again shows the call, answered meanwhile", async ({
  page,
}) => {
  await page.route(CALL_LIST_CHUNK, (route) => route.abort('internetdisconnected'));
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '1' });
  const results = page.getByRole('region', { name: 'Results', exact: true });
  await expect(results.getByRole('alert')).toContainText(
    'The results could not be loaded: the network or the server did not answer.',
  );

  await page.unroute(CALL_LIST_CHUNK);
  await results.getByRole('button', { name: 'Try again' }).focus();
  await page.keyboard.press('Enter');
  await expect(results.getByText('Answered with a task')).toBeVisible();
  await expect(results.getByRole('alert')).toHaveCount(0);
  await expect(results.getByRole('heading', { name: 'Results', exact: true })).toBeFocused();
});

test("loading: the connect form's code fails to load: the fold says so; closed and opened again, the form is there", async ({
  page,
}) => {
  await page.route('**/assets/ConnectForm-*.js', (route) => route.abort('internetdisconnected'));
  await openPlayground(page);
  const fold = page.locator('details').filter({ hasText: 'Connect to your own server' });
  const summary = fold.locator('summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(fold.getByRole('alert')).toContainText('The form could not be loaded');

  await page.unroute('**/assets/ConnectForm-*.js');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(fold.getByRole('textbox', { name: 'MCP endpoint URL' })).toBeVisible();
  await expect(fold.getByRole('alert')).toHaveCount(0);
  await expect(summary).toBeFocused();
});

test("loading: the statechart view's code fails to load: the layer says so with the focus on Try again, Esc goes back to the card, and the next try opens it", async ({
  page,
}) => {
  const DETAIL_CHUNK = '**/assets/TaskDetail-*.js';
  await page.route(DETAIL_CHUNK, (route) => route.abort('internetdisconnected'));
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '30' });
  const toggle = taskCard(page, 'slow_compute').getByRole('button', { name: 'Statechart' });
  await toggle.click();
  const alert = page
    .getByRole('alert')
    .filter({ hasText: 'The statechart view could not be loaded' });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('button', { name: 'Try again' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(alert).toHaveCount(0);
  await expect(toggle).toBeFocused();

  // Still failing: Try again says so again; then, the chunk reachable, Try again opens the detail.
  await toggle.press('Enter');
  await expect(alert.getByRole('button', { name: 'Try again' })).toBeFocused();
  await page.unroute(DETAIL_CHUNK);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: /^Statechart of / })).toBeVisible();
  await expect(alert).toHaveCount(0);
});

test("loading: the Breakpoints form's code fails to load: the open panel says so; Try again, still failing, keeps the focus on Try again, then draws the form with the focus on the summary", async ({
  page,
}) => {
  const FORM_CHUNK = '**/assets/BreakpointsForm-*.js';
  await page.route(FORM_CHUNK, (route) => route.abort('internetdisconnected'));
  await openPlayground(page);
  const popover = page.locator('details.breaks');
  const summary = popover.locator('summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  const alert = popover.getByRole('alert');
  await expect(alert.locator('p')).toHaveText(
    'The breakpoints could not be loaded: the network or the server did not answer.',
  );
  const tryAgain = alert.getByRole('button', { name: 'Try again' });
  await tryAgain.focus();
  await page.keyboard.press('Enter');
  await expect(tryAgain).toBeFocused();

  await page.unroute(FORM_CHUNK);
  await page.keyboard.press('Enter');
  await expect(popover.getByRole('button', { name: 'Add breakpoint' })).toBeVisible();
  await expect(alert).toHaveCount(0);
  await expect(summary).toBeFocused();
  await expect(popover).toHaveAttribute('open');
});

test('loading: the rules view fails to load: the view says so in plain words; Try again, the chunk reachable, shows the rules with the focus on the view', async ({
  page,
}) => {
  const DIGEST_CHUNK = '**/assets/SpecDigestView-*.js';
  await page.route(DIGEST_CHUNK, (route) => route.abort('internetdisconnected'));
  await openPlayground(page);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('link', { name: 'Rules' })
    .click();
  const alert = page.getByRole('alert').filter({ hasText: 'The rules could not be loaded' });
  await expect(alert.locator('p')).toHaveText(
    'The rules could not be loaded: the network or the server did not answer.',
  );
  await expect(alert.locator('details summary')).toHaveText('What the browser said');

  await page.unroute(DIGEST_CHUNK);
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'The rules', exact: true })).toBeVisible();
  await expect(alert).toHaveCount(0);
  await expect(page.locator('#learn-view')).toBeFocused();
});

test("loading: a replay's screen fails to load: the layer says so with the focus on Try again, Close goes back to the live page, the next run opens", async ({
  page,
}) => {
  const BAR_CHUNK = '**/assets/ReplayBar-*.js';
  await page.route(BAR_CHUNK, (route) => route.abort('internetdisconnected'));
  await openPlayground(page);
  const run = serializeRunFile(cancelRaceRun());
  await dropRunFile(page, 'cancel-race.json', run);
  const alert = page.getByRole('alert').filter({ hasText: 'The replay could not be loaded' });
  await expect(alert.getByRole('button', { name: 'Try again' })).toBeFocused();
  await alert.getByRole('button', { name: 'Close' }).click();
  await expect(alert).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^slow_compute\b/ })).toBeVisible();

  await page.unroute(BAR_CHUNK);
  await dropRunFile(page, 'cancel-race.json', run);
  await expect(replayBar(page).getByText('Replay of cancel-race.json')).toBeVisible();
});

test('loading: the cluster controls fail to load: the unfolded panel says so; folded and unfolded again, the controls are there', async ({
  page,
}) => {
  const BODY_CHUNK = '**/assets/ClusterBody-*.js';
  await page.route(BODY_CHUNK, (route) => route.abort('internetdisconnected'));
  await openPlayground(page);
  const panel = page.getByRole('region', { name: 'Cluster' });
  const heading = panel.getByRole('button', { name: 'Cluster' });
  await heading.click();
  await expect(panel.getByRole('alert').locator('p')).toHaveText(
    'The cluster controls could not be loaded: the network or the server did not answer.',
  );

  await page.unroute(BODY_CHUNK);
  await heading.click();
  await heading.click();
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await expect(panel.getByRole('combobox', { name: 'Nodes' })).toBeVisible();
});
