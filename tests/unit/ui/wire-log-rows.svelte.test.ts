/**
 * The wire log component (`WireLog.svelte`) draws its newest rows by
 * position: following a busy log, a flush that brings more new messages
 * than are drawn gives the same row elements the new messages' text
 * instead of destroying every row and drawing it anew (the log's largest
 * cost in the bench's profile). Whether a row is open belongs to its
 * message (its seq), not to the element: an opened row holds the log and
 * stays open on its message while rows arrive, and once the log follows
 * again no element shows another message open.
 */
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WireEntry } from '../../../src/client/rpc-client.ts';
import WireLogView from '../../../src/ui/components/WireLog.svelte';
import { WireLog } from '../../../src/ui/state/wire-log.svelte.ts';

/** Rows drawn while following (`FOLLOWING` in WireLog.svelte). */
const DRAWN = 60;

const poll = (seq: number): WireEntry => ({
  seq,
  at: seq,
  direction: 'out',
  message: { jsonrpc: '2.0', id: seq, method: 'tasks/get', params: { taskId: 't1' } },
});

beforeEach(() => {
  // No frame comes by itself: the test flushes the log (rowsNow) and Svelte (flushSync).
  vi.stubGlobal('requestAnimationFrame', () => 0);
  vi.stubGlobal('cancelAnimationFrame', () => undefined);
});
afterEach(() => vi.unstubAllGlobals());

describe('WireLog.svelte', () => {
  let seq = 0;
  const log = new WireLog();
  const target = document.createElement('div');
  let view: ReturnType<typeof mount> | undefined;

  /** Logs `count` more polls and draws them. */
  const arrive = (count: number) => {
    for (let i = 0; i < count; i++) log.add(poll(++seq));
    log.rowsNow();
    flushSync();
  };
  const rows = () => [...target.querySelectorAll<HTMLLIElement>('ol.rows > li')];
  const ids = () =>
    rows().map((li) => Number(li.querySelector('.id')?.textContent?.replace(/^#/, '')));
  const expanded = () =>
    rows().flatMap((li, i) =>
      li.querySelector('button[aria-expanded="true"]') ? [ids()[i]!] : [],
    );

  beforeEach(() => {
    document.body.append(target);
    view = mount(WireLogView, { target, props: { log } });
    arrive(DRAWN);
  });
  afterEach(() => {
    if (view) unmount(view);
    target.remove();
    log.clear();
  });

  it('following, a flush of more new messages than are drawn reuses every row element for the newest', () => {
    const before = rows();
    expect(before).toHaveLength(DRAWN);
    arrive(DRAWN + 5);
    const after = rows();
    expect(after).toHaveLength(DRAWN);
    expect(after.every((li, i) => li === before[i])).toBe(true);
    expect(ids()).toEqual(Array.from({ length: DRAWN }, (_, i) => seq - DRAWN + 1 + i));
    // A few new messages slide the window by as many.
    arrive(3);
    expect(ids()[0]).toBe(seq - DRAWN + 1);
    expect(ids().at(-1)).toBe(seq);
  });

  it('an opened row holds the log and stays open on its message; following again, no other message shows open', () => {
    const opened = ids()[10]!;
    rows()[10]!.querySelector<HTMLButtonElement>('button[aria-expanded]')!.click();
    flushSync();
    expect(expanded()).toEqual([opened]);
    expect(rows()[10]!.querySelector('pre')?.textContent).toContain(`"id": ${opened}`);

    // Held: new rows append below, the opened one stays where it was, still open.
    arrive(DRAWN + 5);
    expect(rows()).toHaveLength(2 * DRAWN + 5);
    expect(ids()[10]).toBe(opened);
    expect(expanded()).toEqual([opened]);

    const follow = [...target.querySelectorAll('button')].find((b) =>
      b.textContent?.startsWith('Follow new messages'),
    )!;
    follow.click();
    flushSync();
    // The newest rows, in the same elements: the one at position 10 shows another message, closed.
    expect(ids().at(-1)).toBe(seq);
    expect(ids()).not.toContain(opened);
    expect(expanded()).toEqual([]);
    expect(target.querySelector('ol.rows pre')).toBeNull();
  });
});
