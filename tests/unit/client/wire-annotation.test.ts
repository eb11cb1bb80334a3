/** Wire log rows: responses name the request they answer; re-issues are marked. */
import { describe, expect, it } from 'vitest';
import { searchText, WireAnnotator } from '../../../src/client/wire-annotation.ts';
import type { WireEntry } from '../../../src/client/rpc-client.ts';

let seq = 0;
const entry = (
  direction: 'in' | 'out',
  message: unknown,
  extra: Partial<WireEntry> = {},
): WireEntry => ({ seq: ++seq, at: 0, direction, message, ...extra });

describe('WireAnnotator', () => {
  it('a response carries the method and taskId of the request it answers', () => {
    const a = new WireAnnotator();
    a.annotate(
      entry('out', { jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { taskId: 'T1' } }),
    );
    const row = a.annotate(
      entry('in', {
        jsonrpc: '2.0',
        id: 3,
        result: { taskId: 'T1', status: 'working', resultType: 'complete' },
      }),
    );
    expect(row).toMatchObject({
      kind: 'result',
      method: 'tasks/get',
      taskId: 'T1',
      gist: 'working',
    });
  });

  it('C8: an entry asked about twice (the task news, then the wire log) is annotated once: the same row, its request answered once', () => {
    const a = new WireAnnotator();
    const request = entry('out', {
      jsonrpc: '2.0',
      id: 4,
      method: 'tasks/get',
      params: { taskId: 'T1' },
    });
    const answer = entry('in', {
      jsonrpc: '2.0',
      id: 4,
      result: { taskId: 'T1', status: 'working' },
    });
    expect(a.annotate(request)).toBe(a.annotate(request));
    const first = a.annotate(answer);
    expect(a.annotate(answer)).toBe(first);
    expect(first.method).toBe('tasks/get');
    // A second answer to id 4 (another entry) finds its request spent: it was counted once.
    const stray = a.annotate(entry('in', { jsonrpc: '2.0', id: 4, result: { status: 'working' } }));
    expect(stray.method).toBeUndefined();
  });

  it('C8: the filter text is made when first read, kept with the row, and a row updated by the network gets its own', () => {
    const a = new WireAnnotator();
    const row = a.annotate(
      entry('out', { jsonrpc: '2.0', id: 9, method: 'tasks/get', params: { taskId: 'T9' } }),
    );
    expect(Object.keys(row)).not.toContain('search');
    const text = searchText(row);
    expect(text.split(/\s+/)).toEqual(['tasks/get', '9', 't9', 'request']);
    expect(searchText(row)).toBe(text);
    expect(searchText({ ...row, reissueOf: 3 }).split(/\s+/)).toEqual([
      'tasks/get',
      '9',
      't9',
      'request',
      'reissued',
    ]);
  });

  it('T7: a task handle is summarised as "task working" with its taskId', () => {
    const a = new WireAnnotator();
    a.annotate(
      entry('out', {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'slow_compute' },
      }),
    );
    const row = a.annotate(
      entry('in', {
        jsonrpc: '2.0',
        id: 1,
        result: { resultType: 'task', taskId: 'T9', status: 'working' },
      }),
    );
    expect(row).toMatchObject({ method: 'tools/call', taskId: 'T9', gist: 'task working' });
  });

  it('T14, T17: an acknowledged tasks/update or tasks/cancel reads "ack", not the task\'s "complete"', () => {
    const a = new WireAnnotator();
    a.annotate(
      entry('out', { jsonrpc: '2.0', id: 4, method: 'tasks/cancel', params: { taskId: 'T1' } }),
    );
    a.annotate(
      entry('out', {
        jsonrpc: '2.0',
        id: 5,
        method: 'tasks/update',
        params: { taskId: 'T1', inputResponses: {} },
      }),
    );
    a.annotate(
      entry('out', { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'greet' } }),
    );
    expect(
      a.annotate(entry('in', { jsonrpc: '2.0', id: 4, result: { resultType: 'complete' } })).gist,
    ).toBe('ack');
    expect(
      a.annotate(entry('in', { jsonrpc: '2.0', id: 5, result: { resultType: 'complete' } })).gist,
    ).toBe('ack');
    expect(
      a.annotate(
        entry('in', { jsonrpc: '2.0', id: 6, result: { resultType: 'complete', content: [] } }),
      ).gist,
    ).toBe('complete');
  });

  it('an error response shows its code', () => {
    const a = new WireAnnotator();
    a.annotate(
      entry('out', {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'failing_job' },
      }),
    );
    const row = a.annotate(
      entry('in', { jsonrpc: '2.0', id: 2, error: { code: -32021, message: 'x' } }),
    );
    expect(row).toMatchObject({ kind: 'error', method: 'tools/call' });
    expect(row.gist).toContain('-32021');
  });

  it('C8: a re-issued request keeps its link to the id it replaces', () => {
    const a = new WireAnnotator();
    const row = a.annotate(
      entry(
        'out',
        { jsonrpc: '2.0', id: 8, method: 'tasks/get', params: { taskId: 'T1' } },
        { reissueOf: 5 },
      ),
    );
    expect(row.reissueOf).toBe(5);
  });

  it('both copies of a duplicated answer name the request, whichever arrives first (the copy can overtake the original)', () => {
    const a = new WireAnnotator();
    const net = { packet: 1, link: 1, direction: 'in' as const, sentAt: 0, delayMs: 0 };
    a.annotate(
      entry('out', { jsonrpc: '2.0', id: 7, method: 'tasks/get', params: { taskId: 'T1' } }),
    );
    const reply = {
      jsonrpc: '2.0',
      id: 7,
      result: { taskId: 'T1', status: 'working', resultType: 'complete' },
    };
    const copy = a.annotate(entry('in', reply, { net: { ...net, duplicate: true } }));
    const original = a.annotate(entry('in', reply, { net: { ...net, duplicated: true } }));
    expect([copy.method, original.method]).toEqual(['tasks/get', 'tasks/get']);
    // Both copies seen: a stray third answer to the same id names nothing.
    expect(a.annotate(entry('in', reply)).method).toBeUndefined();
  });

  it('something that is not JSON-RPC is kept and marked invalid', () => {
    const row = new WireAnnotator().annotate(entry('in', { hello: 'world' }));
    expect(row.kind).toBe('invalid');
  });
});

describe('WireAnnotator with several clients in one log', () => {
  it('a second connection counting ids from 1 too is matched with its own requests, and named', () => {
    const a = new WireAnnotator();
    a.annotate(
      entry('out', {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'slow_compute' },
      }),
    );
    a.annotate(
      entry(
        'out',
        { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId: 'T1' } },
        { connection: 'mallory' },
      ),
    );
    const theirs = a.annotate(
      entry(
        'in',
        { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Task not found: T1' } },
        { connection: 'mallory' },
      ),
    );
    const mine = a.annotate(
      entry('in', {
        jsonrpc: '2.0',
        id: 1,
        result: { resultType: 'task', taskId: 'T1', status: 'working' },
      }),
    );
    expect(theirs).toMatchObject({
      method: 'tasks/get',
      taskId: 'T1',
      connection: 'mallory',
      gist: 'error -32602',
    });
    expect(searchText(theirs)).toContain('mallory');
    expect(mine).toMatchObject({
      method: 'tools/call',
      taskId: 'T1',
      connection: undefined,
      gist: 'task working',
    });
  });
});
