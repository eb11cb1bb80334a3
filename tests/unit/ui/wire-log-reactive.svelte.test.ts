/**
 * `WireLog.rowsNow()` read from inside a reactive context (a template or a
 * `$derived`, as the scenario panel's second-tab link does through the run's
 * observation): state may not change there, so the pending rows are merged for
 * the read instead of flushed (Svelte throws state_unsafe_mutation otherwise).
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { WireEntry } from '../../../src/client/rpc-client.ts';
import { WireLog } from '../../../src/ui/state/wire-log.svelte.ts';

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

it('C8: rowsNow in a $derived sees pending rows and their fate without changing state; outside it flushes', () => {
  const log = new WireLog();
  log.add(poll(1, 1));
  log.add(poll(2, 2));
  log.update({ packet: 2, at: 3, lost: 'loss' });
  const cleanup = $effect.root(() => {
    const seen = $derived(log.rowsNow());
    expect(seen.map((row) => [row.seq, row.net?.lost])).toEqual([
      [1, undefined],
      [2, 'loss'],
    ]);
  });
  // The reactive read kept nothing: the drawn rows still wait for their frame.
  expect(log.rows).toEqual([]);
  expect(log.rowsNow().map((row) => [row.seq, row.net?.lost])).toEqual([
    [1, undefined],
    [2, 'loss'],
  ]);
  expect(log.rows).toHaveLength(2);
  cleanup();
});
