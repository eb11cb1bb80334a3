import { describe, expect, it } from 'vitest';
import type { WireEntry } from '../../../src/client/rpc-client.ts';
import { FaultLog } from '../../../src/net/fault-log.ts';
import { TaskNews } from '../../../src/session/task-news.ts';

/** A session as the tracker sees it: worker generation, store, running tasks, the wire's last seq. */
function setup() {
  const world = { generation: 1, seq: 0, live: ['t1'] as string[] };
  const news = new TaskNews({
    generation: () => world.generation,
    store: () => 'memory',
    identity: 'learner',
    identityOf: (name) => (name === 'bob' ? 'bob' : undefined),
    lastSeq: () => world.seq,
    liveTaskIds: () => world.live,
  });
  const entry = (e: Omit<WireEntry, 'seq'>): void => news.wire({ ...e, seq: ++world.seq });
  const request = (at: number, id: number, method: string, params: object, extra = {}): void =>
    entry({ at, direction: 'out', message: { jsonrpc: '2.0', id, method, params }, ...extra });
  const result = (at: number, id: number, result: object, extra = {}): void =>
    entry({ at, direction: 'in', message: { jsonrpc: '2.0', id, result }, ...extra });
  const report = (status: string, more: object = {}) => ({
    resultType: 'complete',
    taskId: 't1',
    status,
    createdAt: new Date(0).toISOString(),
    ttlMs: 60_000,
    ...more,
  });
  const log = new FaultLog();
  return { world, news, request, result, report, log };
}

describe('what the page heard about a task', () => {
  it('C8: a kill is a notice after the last wire entry, on the running task, and the last report stays with its time', () => {
    const { world, news, request, result, report, log } = setup();
    request(1000, 1, 'tasks/get', { taskId: 't1' });
    result(1100, 1, report('working', { statusMessage: 'computing: 1 of 6 s' }));
    const notices: unknown[] = [];
    const events = { on: () => () => {}, emit: (_: string, n: unknown) => notices.push(n) };
    news.listen(events as never, log);
    log.add(1500, { kind: 'link.dropped', link: 1, reason: 'server worker killed', inFlight: 1 });
    log.add(1500, { kind: 'server.killed', generation: 1 });
    log.add(1500, { kind: 'link.opened', link: 2 });
    expect(notices).toMatchObject([
      { kind: 'drop', afterSeq: 2, taskIds: ['t1'] },
      { kind: 'kill', afterSeq: 2, taskIds: ['t1'], text: expect.stringContaining('#1 killed') },
    ]);
    const t1 = news.of('t1');
    expect(t1.lastHeard).toMatchObject({
      status: 'working',
      at: 1100,
      statusMessage: 'computing: 1 of 6 s',
      generation: 1,
      expiresAt: 60_000,
    });
    expect(t1.faults.map((f) => f.kind)).toEqual(['drop', 'kill']);
    // The first server's start is no restart; a later one is.
    world.generation = 2;
    log.add(1600, { kind: 'server.started', generation: 1 });
    log.add(1600, { kind: 'server.started', generation: 2 });
    expect(news.of('t1').faults.map((f) => f.kind)).toEqual(['drop', 'kill', 'restart']);
  });

  it('T13: -32602 from a fresh in-memory worker names the restart; later news changes nothing', () => {
    const { world, news, request, result, report } = setup();
    request(1000, 1, 'tasks/get', { taskId: 't1' });
    result(1100, 1, report('working'));
    world.generation = 2;
    request(2000, 2, 'tasks/get', { taskId: 't1' });
    news.wire({
      seq: ++world.seq,
      at: 2100,
      direction: 'in',
      message: { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Task not found' } },
    });
    expect(news.of('t1').gone).toEqual({ kind: 'restarted', heardFrom: 1, answeredBy: 2 });
  });

  it('T12, C8: counts every tasks/get sent, re-issues apart, and only the page’s own', () => {
    const { news, request } = setup();
    request(1000, 1, 'tasks/get', { taskId: 't1' });
    request(1500, 2, 'tasks/get', { taskId: 't1' }, { reissueOf: 1, reissueReason: 'link' });
    request(1600, 3, 'tasks/get', { taskId: 't1' }, { connection: 'second' });
    request(1700, 4, 'tasks/get', { taskId: 't1' }, { net: lostMark() });
    expect(news.of('t1')).toMatchObject({ tasksGetSent: 2, tasksGetReissued: 1 });
  });

  it('T17: a report still working after the cancel was acknowledged: the job carried on', () => {
    const { news, request, result, report } = setup();
    request(1000, 1, 'tasks/cancel', { taskId: 't1' });
    result(1050, 1, { resultType: 'complete' });
    expect(news.of('t1')).toMatchObject({ cancelAckedAt: 1050, ranOnAfterCancel: false });
    request(1500, 2, 'tasks/get', { taskId: 't1' });
    result(1550, 2, report('working'));
    request(2000, 3, 'tasks/get', { taskId: 't1' });
    result(2050, 3, report('completed'));
    expect(news.of('t1')).toMatchObject({
      ranOnAfterCancel: true,
      lastHeard: { status: 'completed' },
    });
  });

  it('T20: a task created over another identity’s connection, then asked about by the page: that identity named', () => {
    const { world, news, request, result } = setup();
    request(1000, 1, 'tools/call', { name: 'slow_compute' }, { connection: 'bob' });
    result(1010, 1, { resultType: 'task', taskId: 't9', status: 'working' }, { connection: 'bob' });
    expect(news.of('t9').lastHeard).toBeUndefined();
    request(1100, 1, 'tasks/get', { taskId: 't9' });
    news.wire({
      seq: ++world.seq,
      at: 1120,
      direction: 'in',
      message: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Task not found' } },
    });
    expect(news.explainUnknown('t9', 1120)).toContain('created over "bob" as bob');
  });
});

function lostMark() {
  return { packet: 9, link: 1, lost: 'loss' as const, delayMs: 0, sentAt: 0 };
}
