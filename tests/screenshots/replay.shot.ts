/**
 * The replay, for the README: the shipped lost-handle run (`public/runs/`)
 * opened by address and moved to the moment of the drop, at 1440 px light,
 * into docs/replay.png (the slider, step buttons, the scenario it was
 * recorded from, the tasks at that moment and the wire log).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parseRunFile } from '../../src/record/run-file.ts';

const RUN = 'runs/lost-handle.json';

/** The drop's time in the shipped run, where the slider is put. */
function dropAt(): number {
  const verdict = parseRunFile(readFileSync(`public/${RUN}`, 'utf8'));
  if (!verdict.ok) throw new Error(verdict.error);
  const drop = verdict.run.events.find((e) => e.kind === 'fault' && e.notice.kind === 'drop');
  if (!drop) throw new Error(`${RUN} has no drop`);
  return drop.at;
}

test('the replay slider on a shipped run, at the drop (docs/replay.png)', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 820 });
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await page.goto(`/?run=${RUN}`);
  const bar = page.getByRole('region', { name: 'Replay' });
  await expect(bar.getByTestId('replay-scenario')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('slider', { name: 'Time in the run' }).fill(String(dropAt()));
  await expect(
    page.getByRole('region', { name: 'Wire log' }).getByText(/link #\d+ broken/),
  ).toBeVisible();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  await page.screenshot({ path: 'docs/replay.png' });
});
