/**
 * `TaskTimeline` drawn with Svelte's client runtime: a running task's plot
 * widens its span as time goes on, so a focused fault mark can merge into
 * its neighbour and its element go. The keyboard stays on the mark that
 * holds the focused fault (`MarkFocus`), and its tooltip with it.
 */
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { FaultLog, type FaultEvent } from '../../../src/net/fault-log.ts';
import TaskTimeline from '../../../src/ui/components/TaskTimeline.svelte';

/** A server killed at 2 s and started again at 6 s. */
function killAndRestart(): FaultEvent[] {
  const log = new FaultLog();
  log.add(2000, { kind: 'server.killed', generation: 1 });
  log.add(6000, { kind: 'server.started', generation: 2 });
  return [...log.events];
}

/** The plot's width as a browser would measure it (happy-dom lays nothing out: 0). */
const PLOT_WIDTH = 1028;

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(PLOT_WIDTH);
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

const marksIn = (target: Element) => [
  ...target.querySelectorAll<SVGGElement>('[data-testid="fault-mark"]'),
];

it('C8: a focused fault mark merged into its neighbour by a rescale hands the focus and the tooltip to the merged mark', async () => {
  const target = document.createElement('div');
  document.body.append(target);
  const props = $state({
    task: { taskId: 't1', createdAt: 0, done: false, ttlMs: null, pollIntervalMs: 1000 },
    rows: [],
    faults: killAndRestart(),
    now: 10_000,
  });
  const timeline = mount(TaskTimeline, { target, props });
  flushSync();
  // 10 s over 1000 px: the kill and the restart are far apart, one mark each.
  const [kill, restart] = marksIn(target);
  expect(marksIn(target).map((g) => g.dataset.faults)).toEqual(['1', '1']);
  restart!.focus();
  flushSync();
  expect(document.activeElement).toBe(restart);
  expect(target.querySelector('[data-testid="fault-tip"]')?.textContent?.trim()).toBe(
    restart!.getAttribute('aria-label'),
  );

  // The task runs on for an hour: the 4 s between them take about 1 px, and the marks merge.
  props.now = 3_600_000;
  flushSync();
  const merged = marksIn(target);
  expect(merged).toHaveLength(1);
  expect(merged[0]!.dataset.faults).toBe('2');
  expect(merged[0]!.dataset.key).toBe(kill!.dataset.key);
  expect(restart!.isConnected).toBe(false);
  await vi.waitFor(() => expect(document.activeElement).toBe(merged[0]));
  expect(target.querySelector('[data-testid="fault-tip"]')?.textContent?.trim()).toBe(
    merged[0]!.getAttribute('aria-label'),
  );
  unmount(timeline);
});
