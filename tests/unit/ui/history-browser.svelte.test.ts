/**
 * `HistoryBrowser` with "Status changes only": the list holds the status
 * changes alone, yet live still shows the newest step (the client giving
 * up), and stepping from there reaches every listed step. A real task
 * actor on a simulated clock.
 */
import { describe, expect, it } from 'vitest';
import { HistoryBrowser } from '../../../src/ui/state/history-browser.svelte.ts';
import { recordedRun, report } from '../helpers/recorded-task-run.ts';

async function gaveUpOnWorking() {
  const run = recordedRun([
    (at) => report('working', at),
    (at) => report('input_required', at),
    () => {
      throw { code: -32602, message: 'Task not found' };
    },
  ]);
  await run.advance(5000);
  const history = new HistoryBrowser(run.graph, () => run.steps());
  return { ...run, history };
}

describe('HistoryBrowser, status changes only', () => {
  it('T13: lists no giving-up row with the status it last heard, while live still shows that newest step', async () => {
    const { history, steps } = await gaveUpOnWorking();
    const newest = steps().at(-1)!;
    expect(newest.serverStatus).toBe('input_required');
    expect(typeof newest.value).toBe('string');

    history.statusChangesOnly = true;
    expect(history.steps.map((s) => s.serverStatus)).toEqual(['working', 'input_required']);
    expect(history.listed(80)).not.toContain(newest);
    // Live: the charts show where the task is now; the list marks the change it dates from.
    expect(history.live).toBe(true);
    expect(history.shown).toBe(newest);
    expect(history.selected).toBe(history.steps[1]);
    expect(history.shownUnlisted).toBe(true);
    expect(history.position).toBe(2);
    expect(history.canGoBack).toBe(true);
  });

  it('T13: older from live goes to the listed change first, then back; newer from the last one is live again', async () => {
    const { history, steps } = await gaveUpOnWorking();
    history.statusChangesOnly = true;
    const [created, asked] = history.steps;
    history.back();
    expect(history.live).toBe(false);
    expect(history.shown).toBe(asked);
    expect(history.shownUnlisted).toBe(false);
    history.move('older');
    expect(history.shown).toBe(created);
    expect(history.canGoBack).toBe(false);
    history.forward();
    history.forward();
    expect(history.live).toBe(true);
    expect(history.shown).toBe(steps().at(-1));
    history.move('oldest');
    expect(history.shown).toBe(created);
    // Clicking the newest recorded step is live; clicking a listed one shows it.
    history.goTo(asked!.index);
    expect(history.live).toBe(false);
    history.goTo(steps().at(-1)!.index);
    expect(history.live).toBe(true);
  });

  it('without the filter every step is listed and live is the newest, listed too', async () => {
    const { history, steps } = await gaveUpOnWorking();
    expect(history.steps).toEqual(steps());
    expect(history.shown).toBe(steps().at(-1));
    expect(history.selected).toBe(history.shown);
    expect(history.shownUnlisted).toBe(false);
    expect(history.position).toBe(steps().length);
  });
});
