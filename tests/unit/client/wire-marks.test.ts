/**
 * The network's marks in the wire log: what the sequence view and the
 * timelines read (lost, delayed, duplicated, reordered, re-issued).
 */
import { describe, expect, it } from 'vitest';
import type { WireEntry } from '../../../src/client/rpc-client.ts';
import {
  netWords,
  searchText,
  WireAnnotator,
  withPacketUpdate,
} from '../../../src/client/wire-annotation.ts';

const sent = (
  seq: number,
  id: number,
  net: WireEntry['net'],
  extra: Partial<WireEntry> = {},
): WireEntry => ({
  seq,
  at: 1000 + seq,
  direction: 'out',
  message: { jsonrpc: '2.0', id, method: 'tasks/get', params: { taskId: 't1' } },
  ...(net ? { net } : {}),
  ...extra,
});

describe('wire marks', () => {
  it('C8: a sent row learns later that it arrived (and was overtaken), or that it was lost with the link', () => {
    const annotator = new WireAnnotator();
    const row = annotator.annotate(
      sent(1, 4, { packet: 7, link: 1, direction: 'out', sentAt: 1001, delayMs: 120 }),
    );
    expect(row.net).toMatchObject({ packet: 7, delayMs: 120 });
    expect(searchText(row)).toContain('delayed');
    const arrived = withPacketUpdate(row, {
      packet: 7,
      at: 1121,
      deliveredAt: 1121,
      reordered: true,
    });
    expect(arrived.net).toMatchObject({ deliveredAt: 1121, reordered: true });
    expect(searchText(arrived)).toContain('reordered');
    const lost = withPacketUpdate(row, { packet: 7, at: 1050, lost: 'link-dropped' });
    expect(lost.net?.lost).toBe('link-dropped');
    expect(netWords(lost)).toEqual(['lost', 'delayed']);
    expect(withPacketUpdate(row, { packet: 8, at: 1, lost: 'loss' })).toBe(row); // another message's news
  });

  it('a re-issued request says of which id, and why', () => {
    const annotator = new WireAnnotator();
    const row = annotator.annotate(
      sent(2, 9, undefined, { reissueOf: 4, reissueReason: 'timeout' }),
    );
    expect(row).toMatchObject({ reissueOf: 4, reissueReason: 'timeout' });
    expect(searchText(row)).toContain('reissued');
  });

  it("a duplicated response still names its method on the network's extra copy", () => {
    const annotator = new WireAnnotator();
    annotator.annotate(sent(1, 4, undefined));
    const answer = {
      jsonrpc: '2.0',
      id: 4,
      result: { resultType: 'complete', taskId: 't1', status: 'working' },
    };
    const mark = { packet: 3, link: 1, direction: 'in' as const, sentAt: 1, delayMs: 0 };
    const first = annotator.annotate({
      seq: 2,
      at: 2,
      direction: 'in',
      message: answer,
      net: { ...mark, duplicated: true },
    });
    const copy = annotator.annotate({
      seq: 3,
      at: 3,
      direction: 'in',
      message: answer,
      net: { ...mark, duplicate: true },
    });
    expect([first.method, copy.method]).toEqual(['tasks/get', 'tasks/get']);
    expect(searchText(copy)).toContain('duplicated');
  });

  it('a request the network delivered twice gets two answers from the server, both named', () => {
    const annotator = new WireAnnotator();
    annotator.annotate({
      ...sent(1, 2, {
        packet: 1,
        link: 1,
        direction: 'out',
        sentAt: 0,
        delayMs: 0,
        duplicated: true,
      }),
      message: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_compute' } },
    });
    const answer = (taskId: string) => ({
      jsonrpc: '2.0',
      id: 2,
      result: { resultType: 'task', taskId, status: 'working' },
    });
    const rows = [
      annotator.annotate({ seq: 2, at: 2, direction: 'in', message: answer('a') }),
      annotator.annotate({ seq: 3, at: 3, direction: 'in', message: answer('b') }),
    ];
    expect(rows.map((r) => [r.method, r.taskId])).toEqual([
      ['tools/call', 'a'],
      ['tools/call', 'b'], // a second task the client never follows: tools/call is not idempotent
    ]);
  });
});
