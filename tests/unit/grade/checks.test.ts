/**
 * Every grader check on hand-made exchanges (a made-up clock, no server):
 * a log that passes it, logs that fail it, and a log that cannot be judged.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS, pollTolerance, type CheckOutcome } from '../../../src/grade/checks.ts';
import { readExchange } from '../../../src/grade/exchange.ts';
import { GraderTool } from '../../../src/grade/tool-names.ts';
import { ErrorCode } from '../../../src/protocol/constants.ts';
import { ExchangeLog } from './exchange-builder.ts';

function run(id: string, log: ExchangeLog): CheckOutcome {
  const check = CHECKS.find((c) => c.id === id);
  if (!check) throw new Error(`no check ${id}`);
  return check.run(log.records.map(readExchange));
}

const working = (pollIntervalMs = 500) => ({ status: 'working' as const, pollIntervalMs });
const done = { status: 'completed' as const, pollIntervalMs: 500 };

describe('grader checks', () => {
  it('T1, C2: extension-declared passes when every request declares the extension, fails on one that does not', () => {
    const good = new ExchangeLog();
    good.request(0, 'server/discover');
    good.call(10, GraderTool.failed, 't1', working());
    expect(run('extension-declared', good).status).toBe('pass');

    const bad = new ExchangeLog();
    bad.request(0, 'server/discover', { declares: false });
    bad.call(10, GraderTool.failed, 't1', working());
    const outcome = run('extension-declared', bad);
    expect(outcome.status).toBe('fail');
    expect(outcome.failures).toEqual(['#1 server/discover did not declare the extension']);

    expect(run('extension-declared', new ExchangeLog()).status).toBe('not-run');
  });

  it('T19: mcp-name passes when every tasks/* names its taskId, fails when missing or wrong', () => {
    const good = new ExchangeLog();
    good.call(0, GraderTool.cancel, 't1', working());
    good.get(600, 't1', working());
    good.cancel(700, 't1');
    good.update(800, 't1', ['a']);
    expect(run('mcp-name', good)).toMatchObject({ status: 'pass' });

    const bad = new ExchangeLog();
    bad.call(0, GraderTool.cancel, 't1', working());
    bad.get(600, 't1', working(), { mcpName: null });
    bad.cancel(700, 't1', { mcpName: 'grade_cancel_completes' });
    const outcome = run('mcp-name', bad);
    expect(outcome.status).toBe('fail');
    expect(outcome.failures).toEqual([
      '#2 tasks/get: no Mcp-Name header',
      '#3 tasks/cancel: Mcp-Name "grade_cancel_completes" is not its taskId',
    ]);
    // A tools/call carries the tool's name: only tasks/* are judged here.
    const callsOnly = new ExchangeLog();
    callsOnly.call(0, GraderTool.failed, 't1', working());
    expect(run('mcp-name', callsOnly).status).toBe('not-run');
  });

  it('T12, T6: poll-interval passes at the interval in force, also after it changes mid-task', () => {
    const log = new ExchangeLog();
    log.call(0, GraderTool.pollInterval, 't1', working(250));
    log.polls(255, 250, 6, 't1', working(250)); // 255 .. 1505
    // The answer to the poll at 1755 says 1500 from now on.
    log.get(1755, 't1', working(1500));
    log.get(3255, 't1', working(1500));
    log.get(4755, 't1', done);
    expect(run('poll-interval', log)).toEqual({
      status: 'pass',
      summary: 'all 9 polls kept to the interval',
      failures: [],
    });
  });

  it('T12, T6: poll-interval fails a client that keeps the old interval after it grew, and one that polls too early', () => {
    const stale = new ExchangeLog();
    stale.call(0, GraderTool.pollInterval, 't1', working(250));
    stale.polls(250, 250, 6, 't1', working(250));
    stale.polls(1750, 250, 3, 't1', working(1500)); // 1750 ok (250 in force), 2000 and 2250 too early
    const outcome = run('poll-interval', stale);
    expect(outcome.status).toBe('fail');
    expect(outcome.failures).toEqual([
      '#9 tasks/get of t1 came 250 ms after the last, with 1500 ms in force',
      '#10 tasks/get of t1 came 250 ms after the last, with 1500 ms in force',
    ]);

    const eager = new ExchangeLog();
    eager.call(0, GraderTool.failed, 't1', working(500));
    eager.get(100, 't1', working(500)); // 95 ms after the handle was answered
    expect(run('poll-interval', eager).failures).toEqual([
      '#2 tasks/get of t1 came 95 ms after the last, with 500 ms in force',
    ]);
  });

  it('T12: poll-interval allows the stated tolerance for timer jitter, and not more', () => {
    expect(pollTolerance(250)).toBe(25);
    expect(pollTolerance(1500)).toBe(50);
    const onEdge = new ExchangeLog();
    onEdge.call(0, GraderTool.failed, 't1', working(500), { answerAfter: 0 });
    onEdge.get(450, 't1', working(500));
    expect(run('poll-interval', onEdge).status).toBe('pass');
    const past = new ExchangeLog();
    past.call(0, GraderTool.failed, 't1', working(500), { answerAfter: 0 });
    past.get(449, 't1', working(500));
    expect(run('poll-interval', past).status).toBe('fail');
  });

  it('T14, T15: input-once passes two keys answered one at a time, fails a key answered twice', () => {
    const good = new ExchangeLog();
    good.call(0, GraderTool.twoInputs, 't1', { status: 'input_required', pollIntervalMs: 500 });
    good.update(600, 't1', ['first']);
    good.update(1600, 't1', ['second']);
    expect(run('input-once', good)).toMatchObject({
      status: 'pass',
      summary: '2 keys answered, each once',
    });

    const bad = new ExchangeLog();
    bad.call(0, GraderTool.twoInputs, 't1', { status: 'input_required', pollIntervalMs: 500 });
    bad.update(600, 't1', ['first']);
    bad.update(1600, 't1', ['first', 'second']);
    expect(run('input-once', bad)).toMatchObject({
      status: 'fail',
      failures: ['#3 answered "first" of t1 again (first in #2)'],
    });
    expect(run('input-once', new ExchangeLog()).status).toBe('not-run');
  });

  it('T17: cancel-by-tasks-cancel passes tasks/cancel, fails notifications/cancelled', () => {
    const good = new ExchangeLog();
    const call = good.call(0, GraderTool.cancel, 't1', working());
    good.cancel(600, 't1');
    expect(run('cancel-by-tasks-cancel', good).status).toBe('pass');

    const bad = new ExchangeLog();
    bad.call(0, GraderTool.cancel, 't1', working());
    bad.cancelledNotification(600, 1);
    expect(run('cancel-by-tasks-cancel', bad)).toMatchObject({
      status: 'fail',
      failures: ['#2 sent notifications/cancelled instead of tasks/cancel'],
    });
    // Both: still a failure.
    const both = new ExchangeLog();
    both.records.push(call);
    both.cancel(600, 't1');
    both.cancelledNotification(610, 1);
    expect(run('cancel-by-tasks-cancel', both).status).toBe('fail');
    expect(run('cancel-by-tasks-cancel', new ExchangeLog()).status).toBe('not-run');
  });

  it('T9, T13: stops-at-terminal passes when polling ends at a terminal status or -32602, fails a poll after', () => {
    const good = new ExchangeLog();
    good.call(0, GraderTool.failed, 't1', working());
    good.get(500, 't1', { status: 'failed', pollIntervalMs: 500 });
    good.call(600, GraderTool.ttl, 't2', working());
    good.get(3700, 't2', ErrorCode.InvalidParams);
    expect(run('stops-at-terminal', good)).toMatchObject({
      status: 'pass',
      summary: '2 tasks ended; none polled after',
    });

    const bad = new ExchangeLog();
    bad.call(0, GraderTool.failed, 't1', working());
    bad.get(500, 't1', { status: 'failed', pollIntervalMs: 500 });
    bad.get(1000, 't1', { status: 'failed', pollIntervalMs: 500 });
    bad.call(1100, GraderTool.ttl, 't2', working());
    bad.get(4100, 't2', ErrorCode.InvalidParams);
    bad.get(4600, 't2', ErrorCode.InvalidParams);
    expect(run('stops-at-terminal', bad).failures).toEqual([
      '#3 polled t1 after #2 answered failed',
      '#6 polled t2 after #5 answered -32602',
    ]);
    const unfinished = new ExchangeLog();
    unfinished.call(0, GraderTool.failed, 't1', working());
    expect(run('stops-at-terminal', unfinished).status).toBe('not-run');
  });

  it('T12: resume-after-restart passes one call followed to its end across connections, fails a second call', () => {
    const good = new ExchangeLog();
    good.call(0, GraderTool.restart, 't1', working(1000));
    good.get(1000, 't1', working(1000));
    // The client restarts: a new connection, the same taskId.
    good.get(5000, 't1', working(1000), { connection: 2 });
    good.get(6000, 't1', done, { connection: 2 });
    expect(run('resume-after-restart', good)).toEqual({
      status: 'pass',
      summary: 'one call; t1 followed to completed over 2 connections',
      failures: [],
    });

    const bad = new ExchangeLog();
    bad.call(0, GraderTool.restart, 't1', working(1000));
    bad.get(1000, 't1', working(1000));
    bad.call(5000, GraderTool.restart, 't2', working(1000), { connection: 2 });
    expect(run('resume-after-restart', bad)).toMatchObject({
      status: 'fail',
      failures: ['#3 called grade_restart_client again instead of resuming t1'],
    });

    const running = new ExchangeLog();
    running.call(0, GraderTool.restart, 't1', working(1000));
    expect(run('resume-after-restart', running).status).toBe('not-run');
    expect(run('resume-after-restart', new ExchangeLog()).status).toBe('not-run');
    // A new run after the first one ended is no failure.
    good.call(7000, GraderTool.restart, 't3', working(1000));
    expect(run('resume-after-restart', good).status).toBe('pass');
  });
});
