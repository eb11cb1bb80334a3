/**
 * The scenario runner as a learner drives it: the drill scores guesses
 * against what really happened, Step and Restart work from the keyboard,
 * and the Scenarios list opens a scenario with a shareable address.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { collectWire, msBetween, wireFromNow, wireRows, type WireRowText } from './playground.ts';

test.describe.configure({ timeout: 60_000 });

const panelOf = (page: Page, title: string): Locator =>
  page.getByRole('region', { name: title, exact: true });
const runStatus = (panel: Locator): Locator => panel.getByRole('status', { name: 'Scenario run' });

test('the drill holds each action back for a guess and scores it against the wire (M4)', async ({
  page,
}) => {
  await page.goto('/?scenario=extension-off&drill&speed=max');
  const panel = panelOf(page, 'The same tool with and without the extension');
  const ask = (question: RegExp): Locator => panel.getByRole('group', { name: question });

  // Asked before the first call: nothing has been sent yet.
  await expect(ask(/^Without the extension, slow_compute answers with/)).toBeVisible();
  await expect(
    page
      .getByRole('list', { name: 'Wire log messages' })
      .getByRole('listitem')
      .filter({ hasText: 'tools/call' }),
  ).toHaveCount(0);
  await ask(/^Without the extension/)
    .getByRole('button', { name: 'the slow_compute result itself' })
    .click();

  // A wrong guess on purpose: the playground, not the scenario, says what happened.
  await ask(/^This server runs deploy_service only as a task/)
    .getByRole('button', { name: 'a task handle' })
    .click();
  await expect(runStatus(panel)).toHaveText(/^Passed/, { timeout: 30_000 });
  const guesses = panel.getByRole('list', { name: 'Your predictions' });
  await expect(guesses.getByRole('listitem')).toHaveText([
    /Step 1: you said the slow_compute result itself\.$/,
    /Step 2: you said a task handle; it was error -32021\./,
  ]);
  await expect(panel.getByLabel('Score')).toHaveText('1/2');
});

test("a slow guess does not lose the run: the server's jobs wait for it (the task is still working when the learner answers)", async ({
  page,
}) => {
  await page.goto('/?scenario=kill-memory-store&drill&speed=max');
  const panel = panelOf(page, 'Server killed, in-memory store');
  const ask = panel.getByRole('group', { name: /^What does the fresh server answer/ });
  await expect(ask).toBeVisible({ timeout: 30_000 });
  await expect(ask).toContainText('held until you answer');
  // Nothing on the panel gives the answer away: the summary, the step's narration and its expectations wait.
  const expectations = panel.getByRole('region', { name: /^Expectations/ });
  await expect(expectations).not.toContainText('-32602');
  await expect(panel).toContainText('What this step does shows after your guess.');
  await expect(panel).not.toContainText('answers the old taskId with -32602');
  // The job takes 6 s; a learner who thinks for 8 s still asks about a working task. The
  // server goes on answering polls while the question waits: every answer says working, over
  // 8 s by the log's own times, and the job's progress stands still short of its end, where
  // a job left running would have finished.
  const card = page.getByRole('article').filter({ hasText: 'slow_compute' });
  const serverStatus = card.getByRole('status', { name: 'Server status' });
  await expect(serverStatus).toHaveText('working');
  const taskId = ((await card.locator('.task-id').textContent()) ?? '').trim();
  const asked = await wireFromNow(page);
  const answers = (rows: readonly WireRowText[]): WireRowText[] =>
    rows.filter(
      (r) =>
        r.seq > asked && r.direction === 'in' && r.method === 'tasks/get' && r.taskId === taskId,
    );
  const rows = await collectWire(
    page,
    (rows) => {
      const polls = answers(rows);
      const first = polls[0];
      const last = polls.at(-1);
      if (!first || !last) return false;
      return polls.some((r) => r.gist !== 'working') || msBetween(first.time, last.time) >= 8000;
    },
    'polls answered over 8 s while the question waits',
    { timeout: 30_000 },
  );
  expect(answers(rows).filter((r) => r.gist !== 'working')).toEqual([]);
  await expect(serverStatus).toHaveText('working');
  // Short of its end: which second it was held in depends on how busy the machine was
  // before the question came; that every answer over 8 s said working is the proof.
  await expect(card.locator('.status-message')).toHaveText(/^computing: [0-5] of 6 s$/);
  await ask.getByRole('button', { name: 'error -32602' }).click();
  await expect(runStatus(panel)).toHaveText(/^Passed/, { timeout: 30_000 });
  await expect(panel.getByLabel('Score')).toHaveText('1/1');
  await expect(expectations).toContainText('-32602');
});

test('at reading speed a 4 s job does not finish while the learner reads: the jobs wait between steps', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // 1x: a pause of several seconds to read each step's narration, longer than the job.
  await page.goto('/?scenario=kill-durable-store&play');
  const panel = panelOf(page, 'Server killed, durable store');
  await expect(runStatus(panel)).toHaveText(/^Step 1 of 2 done; step 2 follows\./, {
    timeout: 60_000,
  });
  await expect(panel.getByTestId('run-note')).toContainText("Between steps the server's jobs wait");
  await expect(runStatus(panel)).toHaveText(/^Passed/, { timeout: 90_000 });
});

test('the world paused mid-scenario holds the run: no step advances for 5 s of wall time; resumed, it plays to all green', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/?scenario=kill-durable-store&play');
  const panel = panelOf(page, 'Server killed, durable store');
  const between = /^Step 1 of 2 done; step 2 follows\./;
  await expect(runStatus(panel)).toHaveText(between, { timeout: 60_000 });
  const world = page.getByRole('banner').getByRole('group', { name: 'World time' });
  await world.getByRole('button', { name: 'Pause' }).click();
  await expect(world.getByRole('button', { name: 'Resume' })).toBeVisible();
  // At 1x the wait between steps is a few seconds of world time: paused, it does not pass.
  const passed = panel.locator('li[data-status="passed"]');
  const before = await passed.count();
  const started = Date.now();
  await expect
    .poll(
      async () => {
        const status = (await runStatus(panel).textContent()) ?? '';
        if (!between.test(status) || (await passed.count()) !== before) return `moved: ${status}`;
        return Date.now() - started >= 5000 ? 'held' : 'holding';
      },
      { timeout: 15_000, intervals: [250], message: 'the run stays between steps 1 and 2 for 5 s' },
    )
    .toBe('held');
  await world.getByRole('button', { name: 'Resume' }).click();
  await expect(runStatus(panel)).toHaveText(/^Passed/, { timeout: 90_000 });
  await expect(panel.locator('li[data-status="failed"]')).toHaveCount(0);
});

test('Step, Pause and Restart from the keyboard; each step pauses; Restart starts clean', async ({
  page,
}) => {
  // The page's clock is Playwright's (it runs as usual until told otherwise), so a pause can be
  // shown to hold for longer than any wait between steps without waiting that long.
  await page.clock.install();
  // Without `speed=max` or `play` in the address, a scenario waits for the learner.
  await page.goto('/?scenario=tool-vs-protocol-error');
  const panel = panelOf(page, 'Tool error against protocol error');
  await expect(runStatus(panel)).toHaveText('Ready: press Play, or Step through it.');
  await panel.getByLabel('Speed').selectOption('max');
  const step = panel.getByRole('button', { name: 'Step', exact: true });

  await step.focus();
  await page.keyboard.press('Enter');
  await expect(runStatus(panel)).toHaveText('Paused after step 1 of 2: Step or Play to go on.', {
    timeout: 20_000,
  });
  await expect(panel.locator('li[data-status="passed"]')).toHaveCount(2);
  await expect(panel.locator('li[data-status="upcoming"]')).toHaveCount(2);
  // Paused: the second job is not called until the learner asks. The run's timers are the
  // page's: every one due in the next 30 s of page time (past the longest wait between steps,
  // 24 s at half speed) fires now, and the run is still where it paused.
  await page.clock.runFor(30_000);
  // The worker's clock is not Playwright's: set the page's date back beside it, or a later run
  // would start "after" the tasks it creates and not count them as its own.
  await page.clock.setSystemTime(Date.now());
  await expect(runStatus(panel)).toHaveText('Paused after step 1 of 2: Step or Play to go on.');
  await expect(panel.locator('li[data-status="upcoming"]')).toHaveCount(2);
  await expect(page.getByRole('region', { name: 'Tasks' }).getByRole('article')).toHaveCount(1);
  await expect(wireRows(page).filter({ hasText: 'protocol_error_job' })).toHaveCount(0);

  // Focus stayed on Step through the step (no need to find it again).
  await expect(step).toBeFocused();
  await page.keyboard.press('Space');
  await expect(runStatus(panel)).toHaveText('Passed: all 4 expectations met.', { timeout: 20_000 });

  const restart = panel.getByRole('button', { name: 'Restart' });
  await restart.focus();
  await page.keyboard.press('Enter');
  await expect(runStatus(panel)).toHaveText('Ready: press Play, or Step through it.');
  await expect(panel.locator('li[data-status="upcoming"]')).toHaveCount(4);
  await expect(restart).toBeFocused();
  // Play and Pause are one button: Enter plays, Enter again pauses, focus never leaves it.
  const playPause = panel.getByRole('button', { name: 'Play' });
  await playPause.focus();
  await page.keyboard.press('Enter');
  const pause = panel.getByRole('button', { name: 'Pause' });
  await expect(pause).toBeFocused();
  // Pause during step 1: the step under way finishes, then the run waits.
  await page.keyboard.press('Enter');
  await expect(runStatus(panel)).toHaveText('Paused after step 1 of 2: Step or Play to go on.', {
    timeout: 20_000,
  });
  await expect(panel.getByRole('button', { name: 'Play' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(runStatus(panel)).toHaveText('Passed: all 4 expectations met.', { timeout: 20_000 });
  // The stage was reset: only this run's two tasks are on the page.
  await expect(page.getByRole('region', { name: 'Tasks' }).getByRole('article')).toHaveCount(2);
});

test('the address keeps the speed and the drill, so a copied link opens the same run; an unknown id says so', async ({
  page,
}) => {
  await page.goto('/?scenario=cancel-race');
  const panel = panelOf(page, 'A cancellation race');
  await panel.getByLabel('Speed').selectOption('2');
  await panel.getByLabel('Predict the next state').check();
  await expect(page).toHaveURL(/[?&]scenario=cancel-race&speed=2&drill$/);
  await panel.getByLabel('Speed').selectOption('1');
  await expect(page).toHaveURL(/[?&]scenario=cancel-race&drill$/);

  await page.goto('/?scenario=no-such-scenario');
  await expect(page.getByRole('alert')).toHaveText(
    'There is no scenario no-such-scenario. Pick one from the list below.',
  );
  await expect(page.getByRole('list', { name: 'Scenarios' })).toBeVisible();
});

test('the Scenarios list opens a scenario in place, with its shareable address; Close puts the tools back', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();
  await page.getByText('Scenarios', { exact: true }).click();
  await page
    .getByRole('list', { name: 'Scenarios' })
    .getByRole('link', { name: 'No tasks/result, no tasks/list' })
    .click();
  await expect(page).toHaveURL(/[?&]scenario=removed-methods$/);
  const panel = panelOf(page, 'No tasks/result, no tasks/list');
  await expect(panel).toContainText('Rules: M1 · T21 · C7 · T12');
  await panel.getByRole('button', { name: 'Close scenario' }).click();
  await expect(panel).toHaveCount(0);
  // Only the seed is left, as on a plain load.
  await expect(page).toHaveURL(/\/\?seed=\d+$/);
  // Back returns to the scenario's address, and the scenario opens again.
  await page.goBack();
  await expect(page).toHaveURL(/[?&]scenario=removed-methods$/);
  await expect(panel).toBeVisible();
});
