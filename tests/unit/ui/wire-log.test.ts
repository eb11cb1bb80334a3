/**
 * The page's wire log state: the cap on kept rows, and network updates that
 * still find their row after older rows were dropped or a reload's rows were
 * put in front.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WireEntry } from '../../../src/client/rpc-client.ts';
import { WireAnnotator } from '../../../src/client/wire-annotation.ts';
import { FLUSH_EVERY_MS, WIRE_ROWS_KEPT, WireLog } from '../../../src/ui/state/wire-log.svelte.ts';

let seq = 0;
const poll = (packet?: number): WireEntry => ({
  seq: ++seq,
  at: seq,
  direction: 'out',
  message: { jsonrpc: '2.0', id: seq, method: 'tasks/get', params: { taskId: 't1' } },
  ...(packet === undefined
    ? {}
    : { net: { packet, link: 1, direction: 'out', sentAt: seq, delayMs: 0 } }),
});

beforeEach(() => {
  seq = 0;
  // Rows are drawn at most every FLUSH_EVERY_MS, in an animation frame; `frames()` lets that time pass.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  const callbacks: (() => void)[] = [];
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => callbacks.push(callback));
  vi.stubGlobal('cancelAnimationFrame', () => undefined);
  frames = () => {
    vi.advanceTimersByTime(FLUSH_EVERY_MS);
    callbacks.splice(0).forEach((callback) => callback());
  };
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
let frames: () => void;

describe('WireLog', () => {
  it(`keeps only the newest ${WIRE_ROWS_KEPT} rows`, () => {
    const log = new WireLog();
    for (let i = 0; i < WIRE_ROWS_KEPT + 250; i++) log.add(poll());
    frames();
    expect(log.rows).toHaveLength(WIRE_ROWS_KEPT);
    expect(log.rows[0]?.seq).toBe(251);
    expect(log.rows.at(-1)?.seq).toBe(WIRE_ROWS_KEPT + 250);
  });

  it("C8: given the session's annotator, shows the very rows it already made (each message annotated once)", () => {
    const annotator = new WireAnnotator();
    const log = new WireLog(annotator);
    const entries = [poll(), poll()];
    const made = entries.map((entry) => annotator.annotate(entry));
    for (const entry of entries) log.add(entry);
    frames();
    expect(log.rows).toHaveLength(2);
    expect(log.rows[0]).toBe(made[0]);
    expect(log.rows[1]).toBe(made[1]);
  });

  it('marks the right row lost after older rows were dropped by the cap', () => {
    const log = new WireLog();
    log.add(poll(1));
    for (let i = 0; i < WIRE_ROWS_KEPT - 10; i++) log.add(poll());
    log.add(poll(2)); // Waits for its fate while 250 more rows push the oldest out.
    for (let i = 0; i < 250; i++) log.add(poll());
    frames();
    log.update({ packet: 2, at: 0, lost: 'loss' });
    log.update({ packet: 1, at: 0, lost: 'loss' }); // Its row is gone: ignored, nothing else marked.
    frames();
    const lost = log.rows.filter((row) => row.net?.lost);
    expect(lost.map((row) => row.net?.packet)).toEqual([2]);
  });

  it("marks the right row after a reload's kept rows were put in front", () => {
    const log = new WireLog();
    log.add(poll(7));
    frames();
    log.restore([
      { ...poll(), seq: -2 },
      { ...poll(), seq: -1 },
    ]);
    log.update({ packet: 7, at: 0, deliveredAt: 5 });
    frames();
    expect(log.rows.map((row) => row.seq)).toEqual([-2, -1, 1]);
    expect(log.rows[2]?.net?.deliveredAt).toBe(5);
  });

  it(`draws new rows at most every ${FLUSH_EVERY_MS} ms`, () => {
    const log = new WireLog();
    log.add(poll());
    frames();
    log.add(poll());
    vi.advanceTimersByTime(FLUSH_EVERY_MS / 2);
    expect(log.rows).toHaveLength(1);
    frames();
    expect(log.rows).toHaveLength(2);
  });

  it('marks rows logged after Clear', () => {
    const log = new WireLog();
    log.add(poll());
    log.add(poll());
    frames();
    log.clear();
    log.add(poll(3));
    frames();
    log.update({ packet: 3, at: 0, lost: 'link-dropped' });
    frames();
    expect(log.rows).toHaveLength(1);
    expect(log.rows[0]?.net?.lost).toBe('link-dropped');
  });
});
