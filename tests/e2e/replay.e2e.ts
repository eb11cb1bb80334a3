/**
 * Replaying a run file in Chromium: opened from the file picker, stepped to
 * the moment of the drop, the wire log, the sequence view and the task's
 * lifecycle chart show that moment; Close gives the live page back; bad
 * input (not JSON, a newer version, a `?run=` answering 404) leaves one
 * message and the live page as it was.
 */
import { expect, test, type Page } from '@playwright/test';
import { serializeRunFile } from '../../src/record/run-file.ts';
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
