/**
 * `WireLog.rowsNow()` read from a component's template (the scenario panel's
 * second-tab link reads it through the run's observation): state may not
 * change there, so the pending rows are merged for the read instead of
 * flushed, which Svelte refuses with state_unsafe_mutation. The component is
 * mounted with Svelte's client runtime in a DOM (happy-dom): in Node's
 * server runtime no template is reactive and no such write is refused.
 */
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { WireEntry } from '../../../src/client/rpc-client.ts';
import { WireLog } from '../../../src/ui/state/wire-log.svelte.ts';
import RowsNowList from './components/RowsNowList.svelte';

const poll = (seq: number, packet: number): WireEntry => ({
  seq,
  at: seq,
  direction: 'out',
  message: { jsonrpc: '2.0', id: seq, method: 'tasks/get', params: { taskId: 't1' } },
  net: { packet, link: 1, direction: 'out', sentAt: seq, delayMs: 0 },
});

beforeEach(() => {
  // No frame ever comes: every row stays pending until something flushes.
  vi.stubGlobal('requestAnimationFrame', () => 0);
  vi.stubGlobal('cancelAnimationFrame', () => undefined);
});
afterEach(() => vi.unstubAllGlobals());

/** The rows the template drew: seq and why it was lost. */
const drawn = (target: HTMLElement) =>
  [...target.querySelectorAll('li')].map((li) => [li.textContent, li.dataset['lost']]);

it('C8: a template reading rowsNow() draws the pending rows and their fate without changing state; outside one it flushes', () => {
  const log = new WireLog();
  log.add(poll(1, 1));
  log.add(poll(2, 2));
  log.update({ packet: 2, at: 3, lost: 'loss' });
  const target = document.createElement('div');
  const list = mount(RowsNowList, { target, props: { log } });
  try {
    flushSync();
    expect(drawn(target)).toEqual([
      ['1', ''],
      ['2', 'loss'],
    ]);
    // The template's read kept nothing: the log's drawn rows still wait for their frame.
    expect(log.rows).toEqual([]);
    // Read outside any reactive context, rowsNow flushes, and the template follows the rows it kept.
    expect(log.rowsNow().map((row) => [row.seq, row.net?.lost])).toEqual([
      [1, undefined],
      [2, 'loss'],
    ]);
    expect(log.rows).toHaveLength(2);
    log.add(poll(3, 3));
    log.rowsNow();
    flushSync();
    expect(drawn(target).map(([seq]) => seq)).toEqual(['1', '2', '3']);
  } finally {
    unmount(list);
  }
});
