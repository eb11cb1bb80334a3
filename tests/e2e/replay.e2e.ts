/**
 * Replaying a run file in Chromium: opened from the file picker, stepped to
 * the moment of the drop, the wire log, the sequence view and the task's
 * lifecycle chart show that moment; Close gives the live page back; bad
 * input (not JSON, a newer version, a `?run=` answering 404) leaves one
 * message and the live page as it was.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { RunEvent, RunEventOf } from '../../src/record/run-events.ts';
import { parseRunFile, serializeRunFile } from '../../src/record/run-file.ts';
import { cancelRaceRun } from '../unit/replay/run-fixture.ts';
import { openPlayground } from './playground.ts';

const replayBar = (page: Page) => page.getByRole('region', { name: 'Replay' });

async function openRun(page: Page, name: string, text: string): Promise<void> {
  await page
    .getByLabel('Open a run file to replay')
    .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

test.describe('replay', () => {
  test('steps a recorded run to the drop: wire log, sequence and chart show that moment', async ({
    page,
  }) => {
    await openPlayground(page);
    await openRun(page, 'cancel-race.json', serializeRunFile(cancelRaceRun()));
    const bar = replayBar(page);
    await expect(bar.getByText('Replay of cancel-race.json')).toBeVisible();
    // The live controls that act are gone while the replay shows.
    await expect(page.getByRole('button', { name: /Kill server/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Clear' })).toHaveCount(0);

    const wire = page.getByRole('region', { name: 'Wire log' });
    // Step by state change: the task's first step, its x-ray, then the drop.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight');
    const time = bar.getByRole('status');
    await expect(time).toContainText('1.00 s / 3.00 s');
    await expect(time).toContainText('message 3 of 5');
    await expect(wire.getByText(/link #1 broken/)).toBeVisible();
    const card = page.locator('[data-task-id="t1"]');
    await expect(card.getByRole('status', { name: 'Server status' })).toHaveText('working');
    await expect(card.locator('[data-views]')).toHaveAttribute('data-views', 'agree');

    await page.getByRole('tab', { name: 'Sequence' }).click();
    await expect(page.getByText(/link #1 broken/)).toBeVisible();

    // To the end: completed, as the client saw it last.
    await page.getByRole('slider', { name: 'Time in the run' }).fill('3000');
    await expect(card.getByRole('status', { name: 'Server status' })).toHaveText('completed');

    await bar.getByRole('button', { name: 'Close replay' }).click();
    await expect(bar).toHaveCount(0);
    await expect(
      page.getByRole('status').filter({ hasText: 'Connected as learner' }),
    ).toBeVisible();
  });

  test("T12: a recorded run shows each task's timeline and full detail at the slider's time", async ({
    page,
  }) => {
    // Eight slider moves and two elk layouts of the follower machine: past 30 s on a busy machine.
    test.setTimeout(90_000);
    const verdict = parseRunFile(readFileSync('public/runs/cancel-race.json', 'utf8'));
    if (!verdict.ok) throw new Error(verdict.error);
    const { events } = verdict.run;
    const steps = events.filter(
      (event: RunEvent): event is RunEventOf<'task-step'> => event.kind === 'task-step',
    );
    const polls = events.filter(
      (event) =>
        event.kind === 'wire' &&
        event.entry.direction === 'out' &&
        JSON.stringify(event.entry.message).includes('"tasks/get"'),
    );
    const taskId = steps[0]!.taskId;
    const duration = events.at(-1)!.at;
    const pollsBy = (t: number) => polls.filter((event) => event.at <= t).length;
    const pollsText = (n: number) => `${n} poll${n === 1 ? '' : 's'}`;
    expect(polls.length).toBeGreaterThan(0);

    await page.goto('/?run=runs/cancel-race.json');
    const slider = page.getByRole('slider', { name: 'Time in the run' });
    const card = page.locator(`article.replay-task[data-task-id="${taskId}"]`);
    // The card's timeline: only the polls sent by the slider's time.
    await slider.fill(String(polls[0]!.at - 1));
    await expect(card.getByTestId('timeline-polls')).toHaveText(
      pollsText(pollsBy(polls[0]!.at - 1)),
    );
    await slider.fill(String(polls[0]!.at));
    await expect(card.getByTestId('timeline-polls')).toHaveText(pollsText(pollsBy(polls[0]!.at)));

    // The full detail, its history ending at the slider's time.
    await slider.fill(String(steps[2]!.at));
    await card.getByRole('button', { name: /^Statechart/ }).click();
    const detail = page.locator(`section.detail[data-task-id="${taskId}"]`);
    const position = detail.getByTestId('history-position');
    await expect(position).toContainText('Step 3 of 3 (live)');
    await expect(detail.getByTestId('history-event')).toHaveAttribute(
      'data-event',
      steps[2]!.step.event,
    );
    await expect(
      detail.getByRole('list', { name: 'Recorded steps, newest first' }).getByRole('listitem'),
    ).toHaveCount(3);
    await expect(detail.getByTestId('timeline-polls')).toHaveText(pollsText(pollsBy(steps[2]!.at)));
    await detail.getByRole('button', { name: 'Step back' }).click();
    await expect(position).toContainText('Step 2 of 3:');

    // Later on the slider: the history runs on to that moment's newest step.
    await slider.fill(String(duration));
    await expect(position).toContainText(`Step ${steps.length} of ${steps.length} (live)`);
    await expect(detail.getByTestId('history-event')).toHaveAttribute(
      'data-event',
      steps.at(-1)!.step.event,
    );
    await expect(detail.getByTestId('timeline-polls')).toHaveText(pollsText(polls.length));

    // "How this client follows it", one click away: the follower machine at that step.
    await detail.getByRole('button', { name: 'How this client follows it' }).click();
    await expect(
      detail.getByRole('region', { name: 'Statechart drawing' }).locator('svg').first(),
    ).toBeVisible();
    await detail.getByRole('button', { name: 'How this client follows it' }).click();

    // Read-only: Close gives the cards back, focus on the button that opened it.
    await page.keyboard.press('Escape');
    await expect(detail).toHaveCount(0);
    await expect(card.getByRole('button', { name: /^Statechart/ })).toBeFocused();
  });

  test('a file that is not a run, or from a newer app, is refused with what is wrong', async ({
    page,
  }) => {
    await openPlayground(page);
    await openRun(page, 'notes.txt', 'these are my notes');
    const alert = page.getByRole('alert').filter({ hasText: 'cannot be replayed' });
    await expect(alert).toContainText('not JSON');
    await expect(replayBar(page)).toHaveCount(0);
    await alert.getByRole('button', { name: 'Dismiss' }).click();

    await openRun(page, 'future.json', JSON.stringify({ ...cancelRaceRun(), version: 2 }));
    await expect(page.getByRole('alert')).toContainText('made by a newer app');
    await expect(page.getByRole('button', { name: /^slow_compute\b/ })).toBeVisible();
  });

  test('a ?run= address that answers 404 says so; the live page starts as ever', async ({
    page,
  }) => {
    await page.route('**/runs/no-such-run.json', (route) =>
      route.fulfill({ status: 404, body: 'Not Found' }),
    );
    await page.goto('/?run=runs/no-such-run.json');
    await expect(page.getByRole('alert')).toContainText('runs/no-such-run.json answered HTTP 404');
    await expect(
      page.getByRole('status').filter({ hasText: 'Connected as learner' }),
    ).toBeVisible();
    await expect(page).not.toHaveURL(/run=/);
  });

  test('a ?run= address that answers a web page (a wrong address on this site) says so', async ({
    page,
  }) => {
    await page.goto('/?run=runs/typo.json');
    await expect(page.getByRole('alert')).toContainText('answered a web page');
  });
});
