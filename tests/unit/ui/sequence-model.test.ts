/**
 * The sequence view's model: messages tied to their task (a tools/call
 * learns its taskId from the answer that created the task, a lost request
 * from its re-issue, C8), marked with what the network did, and filtered.
 */
import { describe, expect, it } from 'vitest';
import type { WireEntry } from '../../../src/client/rpc-client.ts';
import { WireAnnotator, type WireRow } from '../../../src/client/wire-annotation.ts';
import type { NetMark } from '../../../src/net/net-marks.ts';
import {
  buildSequence,
  filterSequence,
  markLabels,
  sequenceFacets,
  taskMessages,
  type SequenceMessage,
} from '../../../src/ui/sequence/sequence-model.ts';

const T = 'task-abc';
let seq = 0;
const mark = (extra: Partial<NetMark> = {}): NetMark => ({
  packet: seq,
  link: 1,
  direction: 'out',
  sentAt: 0,
  delayMs: 0,
  ...extra,
});
const entry = (
  direction: 'out' | 'in',
  message: unknown,
  extra: Partial<WireEntry> = {},
): WireEntry => ({ seq: ++seq, at: 1000 + seq, direction, message, ...extra });
const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});
const result = (id: number, result: Record<string, unknown>) => ({ jsonrpc: '2.0', id, result });
const task = (status: string, resultType = 'complete') => ({
  resultType,
  taskId: T,
  status,
  createdAt: '',
  lastUpdatedAt: '',
  ttlMs: null,
});

function rows(): WireRow[] {
  seq = 0;
  const annotator = new WireAnnotator();
  return [
    entry('out', request(1, 'tools/list')),
    entry('in', result(1, { tools: [] })),
    entry('out', request(2, 'tools/call', { name: 'slow_compute' })),
    entry('in', result(2, task('working', 'task'))),
    entry('out', request(3, 'tasks/get', { taskId: T }), { net: mark({ delayMs: 120 }) }),
    entry('in', result(3, task('working')), {
      net: mark({ direction: 'in', delayMs: 80, duplicated: true }),
    }),
    // The link drops with #4 in flight: it is re-issued as #5 (C8).
    entry('out', request(4, 'tasks/get', { taskId: T }), {
      net: mark({ lost: 'link-dropped', delayMs: 300 }),
    }),
    entry('out', request(5, 'tasks/get', { taskId: T }), { reissueOf: 4, reissueReason: 'link' }),
    entry('in', result(5, task('completed'))),
  ].map((e) => annotator.annotate(e));
}

describe('buildSequence', () => {
  it('ties a tools/call request to the task its answer created', () => {
    const messages = buildSequence(rows());
    const call = messages.find((m) => m.method === 'tools/call' && m.direction === 'out');
    expect(call?.taskId).toBe(T);
    expect(messages.find((m) => m.method === 'tools/list')?.taskId).toBeUndefined();
  });

  it('marks lost, delayed, duplicated and re-issued messages (C8)', () => {
    const byId = (id: number, direction: 'out' | 'in') =>
      buildSequence(rows()).find((m) => m.id === id && m.direction === direction)!;
    expect(byId(3, 'out')).toMatchObject({ delayMs: 120 });
    expect(markLabels(byId(3, 'out'))).toEqual(['delayed +120 ms']);
    expect(markLabels(byId(3, 'in'))).toEqual(['delayed +80 ms', 'duplicated']);
    expect(byId(4, 'out')).toMatchObject({ lost: 'link-dropped', reissuedAs: 5 });
    expect(byId(4, 'out').delayMs).toBeUndefined();
    expect(markLabels(byId(4, 'out'))).toEqual(['lost (link-dropped)', 're-issued as #5']);
    expect(byId(5, 'out')).toMatchObject({ reissueOf: 4, reissueReason: 'link' });
    expect(markLabels(byId(5, 'out'))).toEqual(['re-issue of #4']);
  });

  it('marks a request that was re-issued without a network mark as unanswered', () => {
    seq = 0;
    const annotator = new WireAnnotator();
    const messages = buildSequence(
      [
        entry('out', request(7, 'tasks/get', { taskId: T })),
        entry('out', request(8, 'tasks/get', { taskId: T }), {
          reissueOf: 7,
          reissueReason: 'timeout',
        }),
      ].map((e) => annotator.annotate(e)),
    );
    expect(markLabels(messages[0]!)).toEqual(['unanswered', 're-issued as #8']);
    expect(markLabels(messages[1]!)).toEqual(['re-issue of #7 (timeout)']);
  });

  it('returns the same object for an unchanged row, so a keyed view redraws only what is new', () => {
    const all = rows();
    const cache = new WeakMap<WireRow, SequenceMessage>();
    const first = buildSequence(all.slice(0, 3), cache);
    const second = buildSequence(all, cache);
    // The call's taskId became known with row 4: a new object for it, the rest reused.
    expect(second[0]).toBe(first[0]);
    expect(second[2]).not.toBe(first[2]);
    expect(second[2]?.taskId).toBe(T);
    expect(buildSequence(all, cache)[2]).toBe(second[2]);
  });
});

describe('filters', () => {
  it("filters by taskId and by method (a response counts as its request's method)", () => {
    const messages = buildSequence(rows());
    const forTask = filterSequence(messages, { taskId: T, method: '' });
    expect(forTask.map((m) => `${m.direction} ${m.method}`)).toEqual([
      'out tools/call',
      'in tools/call',
      'out tasks/get',
      'in tasks/get',
      'out tasks/get',
      'out tasks/get',
      'in tasks/get',
    ]);
    const polls = filterSequence(messages, { taskId: T, method: 'tasks/get' });
    expect(polls.every((m) => m.method === 'tasks/get')).toBe(true);
    expect(polls).toHaveLength(5);
    expect(sequenceFacets(messages)).toEqual({
      taskIds: [T],
      methods: ['tools/list', 'tools/call', 'tasks/get'],
    });
  });

  it("taskMessages keeps a task's own rows for its timeline", () => {
    const own = taskMessages(rows(), T);
    expect(own.map((m) => m.id)).toEqual([2, 3, 3, 4, 5, 5]);
    expect(own.find((m) => m.id === 4)?.lost).toBe('link-dropped');
  });
});
