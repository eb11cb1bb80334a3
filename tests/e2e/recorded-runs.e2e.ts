/**
 * The recorded runs shipped in `public/runs/`, in Chromium: a scenario's
 * "Watch a recording" (in the Scenarios list, by keyboard, and in the
 * scenario's panel) opens its run in the replay, which names the scenario it
 * was recorded from; `?run=runs/<file>` of a shipped run opens by address.
 */
import { expect, test, type Page } from '@playwright/test';
import { openPlayground } from './playground.ts';

const replayBar = (page: Page) => page.getByRole('region', { name: 'Replay' });

test('T17: Watch a recording in the Scenarios list opens the cancel race by keyboard, naming its scenario', async ({
  page,
}) => {
  await openPlayground(page);
  const list = page.getByRole('list', { name: 'Scenarios' });
  if (!(await list.isVisible())) await page.getByText('Scenarios', { exact: true }).click();
  const watch = list.getByRole('link', { name: 'Watch a recording of A cancellation race' });
  await expect(watch).toHaveAttribute('href', '/?run=runs/cancel-race.json');
  // Only the scenarios with a shipped run have one.
  await expect(list.getByRole('link', { name: /^Watch a recording of / })).toHaveCount(3);
  await watch.focus();
  await page.keyboard.press('Enter');

  const bar = replayBar(page);
  await expect(bar.getByText('Replay of runs/cancel-race.json')).toBeVisible();
  await expect(bar.getByTestId('replay-scenario')).toHaveText(
    /Recorded from the scenario A cancellation race/,
  );
  await expect(page).toHaveURL(/[?&]run=runs%2Fcancel-race\.json/);
  // The keyboard carries on in the replay: Play has the focus, the arrows step.
  await expect(bar.getByRole('button', { name: 'Play', exact: true })).toBeFocused();
  await page.keyboard.press('Shift+ArrowRight');
  await expect(bar.getByRole('status')).not.toContainText('0.00 s /');

  // To the end: the cancel was sent, yet the task ended completed (T17).
  const slider = page.getByRole('slider', { name: 'Time in the run' });
  await slider.fill(await slider.getAttribute('max').then((max) => max ?? '0'));
  const wire = page.getByRole('region', { name: 'Wire log' });
  await expect(wire.getByText('tasks/cancel').first()).toBeVisible();
  await expect(
    page.locator('.replay-layer').getByRole('status', { name: 'Server status' }),
  ).toHaveText('completed');

  await bar.getByRole('button', { name: 'Close replay' }).click();
  await expect(bar).toHaveCount(0);
  await expect(page).not.toHaveURL(/run=/);
});

test("M7: the scenario's panel links its recording; ?run= of a shipped run opens by address", async ({
  page,
}) => {
  await page.goto('/?scenario=lost-handle');
  const panel = page.getByRole('region', { name: 'The lost handle: a second task, and an orphan' });
  await panel
    .getByRole('link', {
      name: 'Watch a recording of The lost handle: a second task, and an orphan',
    })
    .click();
  const bar = replayBar(page);
  await expect(bar.getByText('Replay of runs/lost-handle.json')).toBeVisible();
  await expect(bar.getByTestId('replay-scenario')).toContainText('The lost handle');

  await page.goto('/?run=runs/cluster-takeover.json');
  await expect(bar.getByText('Replay of runs/cluster-takeover.json')).toBeVisible();
  await expect(bar.getByTestId('replay-scenario')).toContainText(
    'Cluster: a node dies, another takes the job over',
  );
  await expect(bar.getByRole('link', { name: 'play it live' })).toHaveAttribute(
    'href',
    '/?scenario=cluster-takeover',
  );
  // The live page starts beneath it as ever.
  await bar.getByRole('button', { name: 'Close replay' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();
});
