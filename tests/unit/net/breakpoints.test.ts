/**
 * Breakpoints on the simulated network, one kind at a time: each matches the
 * message it names and not its neighbours, and a hit pauses with a reason
 * that says which breakpoint and which message. The messages are described
 * by the network's own `MessageTracker`, as `FaultyNetwork.onEnter` does.
 */
import { describe, expect, it } from 'vitest';
import {
  Breakpoints,
  describeBreakpoint,
  hits,
  nextHitWords,
  type Breakpoint,
} from '../../../src/net/breakpoints.ts';
import type { EnteringMessage } from '../../../src/net/faulty-network.ts';
import type { LinkDirection } from '../../../src/net/link-conditions.ts';
import { MessageTracker } from '../../../src/net/message-info.ts';

const TASK = 'task-aaaaaaaa-1111';
const OTHER = 'task-bbbbbbbb-2222';

/** Describes messages in the order given, on one link, so responses name their request's method. */
function link() {
  const tracker = new MessageTracker();
  return (direction: LinkDirection, message: unknown): EnteringMessage => ({
    direction,
    info: tracker.describe(direction, message),
  });
}

const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});
const result = (id: number, value: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  result: value,
});

/** A stand-in network: the enter listener Breakpoints registers, called by hand. */
function fakeNetwork() {
  let listener: ((entry: EnteringMessage) => void) | undefined;
  return {
    onEnter(next: (entry: EnteringMessage) => void) {
      listener = next;
      return () => (listener = undefined);
    },
    enter(entry: EnteringMessage) {
      listener?.(entry);
    },
  };
}

describe('breakpoints: cancel-in-flight', () => {
  const cancel: Breakpoint = { kind: 'cancel-in-flight' };

  it('T17: hits a tasks/cancel request leaving the page', () => {
    const enter = link();
    expect(hits(cancel, enter('out', request(1, 'tasks/cancel', { taskId: TASK })))).toBe(true);
  });

  it('T17: does not hit the cancel ack coming back, other requests, or a cancel seen inbound', () => {
    const enter = link();
    enter('out', request(1, 'tasks/cancel', { taskId: TASK }));
    const ack = enter('in', result(1, { resultType: 'complete' }));
    expect(ack.info.method).toBe('tasks/cancel');
    expect(hits(cancel, ack)).toBe(false);
    expect(hits(cancel, enter('out', request(2, 'tasks/get', { taskId: TASK })))).toBe(false);
    expect(hits(cancel, enter('in', request(3, 'tasks/cancel', { taskId: TASK })))).toBe(false);
  });
});

describe('breakpoints: match', () => {
  it('T10: a method match hits the request and the response that answers it, not another method', () => {
    const enter = link();
    const byMethod: Breakpoint = { kind: 'match', method: 'tasks/get' };
    expect(hits(byMethod, enter('out', request(1, 'tasks/get', { taskId: TASK })))).toBe(true);
    expect(hits(byMethod, enter('in', result(1, { status: 'working', taskId: TASK })))).toBe(true);
    expect(hits(byMethod, enter('out', request(2, 'tools/list')))).toBe(false);
    expect(hits(byMethod, enter('in', result(2, { tools: [] })))).toBe(false);
  });

  it('T10: a taskId match hits messages about that task only', () => {
    const enter = link();
    const byTask: Breakpoint = { kind: 'match', taskId: TASK };
    expect(hits(byTask, enter('out', request(1, 'tasks/get', { taskId: TASK })))).toBe(true);
    expect(hits(byTask, enter('out', request(2, 'tasks/get', { taskId: OTHER })))).toBe(false);
    expect(hits(byTask, enter('out', request(3, 'tools/list')))).toBe(false);
  });

  it('T9: a status match hits a result or notification carrying that status, not another status', () => {
    const enter = link();
    const completed: Breakpoint = { kind: 'match', status: 'completed' };
    enter('out', request(1, 'tasks/get', { taskId: TASK }));
    expect(hits(completed, enter('in', result(1, { taskId: TASK, status: 'working' })))).toBe(
      false,
    );
    enter('out', request(2, 'tasks/get', { taskId: TASK }));
    expect(hits(completed, enter('in', result(2, { taskId: TASK, status: 'completed' })))).toBe(
      true,
    );
    const pushed = {
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { taskId: TASK, status: 'completed' },
    };
    expect(hits(completed, enter('in', pushed))).toBe(true);
  });

  it('T10: every given field must match: method and status together', () => {
    const enter = link();
    const both: Breakpoint = { kind: 'match', method: 'tasks/get', status: 'completed' };
    enter('out', request(1, 'tasks/get', { taskId: TASK }));
    expect(hits(both, enter('in', result(1, { taskId: TASK, status: 'completed' })))).toBe(true);
    enter('out', request(2, 'tasks/get', { taskId: TASK }));
    expect(hits(both, enter('in', result(2, { taskId: TASK, status: 'working' })))).toBe(false);
    const pushed = {
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { taskId: TASK, status: 'completed' },
    };
    expect(hits(both, enter('in', pushed))).toBe(false);
  });

  it('a match with no field never hits, and Breakpoints refuses to set it', () => {
    const enter = link();
    const empty: Breakpoint = { kind: 'match' };
    expect(hits(empty, enter('out', request(1, 'tasks/get', { taskId: TASK })))).toBe(false);
    const breakpoints = new Breakpoints(fakeNetwork(), () => {});
    expect(breakpoints.add(empty)).toBeUndefined();
    expect(breakpoints.list).toHaveLength(0);
  });
});

describe('Breakpoints', () => {
  it('T17: pauses once per hit with a reason naming the breakpoint and the message; none after removal', () => {
    const network = fakeNetwork();
    const reasons: string[] = [];
    const changes: number[] = [];
    const breakpoints = new Breakpoints(network, (reason) => reasons.push(reason));
    breakpoints.subscribe(() => changes.push(breakpoints.list.length));
    const set = breakpoints.add({ kind: 'cancel-in-flight' });
    const enter = link();

    network.enter(enter('out', request(1, 'tasks/get', { taskId: TASK })));
    expect(reasons).toEqual([]);
    network.enter(enter('out', request(2, 'tasks/cancel', { taskId: TASK })));
    expect(reasons).toEqual([
      'breakpoint: a tasks/cancel in flight (sent: tasks/cancel task task-aaa)',
    ]);
    // The header's few words, and the reason they go with.
    expect(breakpoints.lastHit).toEqual({
      reason: reasons[0],
      words: 'tasks/cancel sent',
      breakpoint: set,
    });

    breakpoints.remove(set!.id);
    network.enter(enter('out', request(3, 'tasks/cancel', { taskId: TASK })));
    expect(reasons).toHaveLength(1);
    expect(changes).toEqual([1, 0]);
  });

  it('T9: a status hit on the way in says answered', () => {
    const network = fakeNetwork();
    const reasons: string[] = [];
    const breakpoints = new Breakpoints(network, (reason) => reasons.push(reason));
    breakpoints.add({ kind: 'match', status: 'completed' });
    const enter = link();
    network.enter(enter('out', request(1, 'tasks/get', { taskId: TASK })));
    network.enter(enter('in', result(1, { taskId: TASK, status: 'completed' })));
    expect(reasons).toEqual([
      'breakpoint: a message with status completed (answered: tasks/get task task-aaa)',
    ]);
    expect(breakpoints.lastHit?.words).toBe('tasks/get answered: completed');
  });

  it('says which message each kind pauses at next once resumed: a match, both ways unless it needs a status', () => {
    expect(nextHitWords({ kind: 'cancel-in-flight' })).toBe('the next tasks/cancel sent');
    expect(nextHitWords({ kind: 'match', method: 'tasks/get' })).toBe(
      'the next tasks/get, sent or answered',
    );
    expect(nextHitWords({ kind: 'match', method: 'tasks/get', status: 'working' })).toBe(
      'the next tasks/get with status working',
    );
    expect(nextHitWords({ kind: 'match', taskId: TASK })).toBe(
      'the next message of task task-aaa, sent or answered',
    );
  });

  it('describes each kind in words', () => {
    expect(describeBreakpoint({ kind: 'cancel-in-flight' })).toBe('a tasks/cancel in flight');
    expect(describeBreakpoint({ kind: 'match', method: 'tasks/get', taskId: 'abc' })).toBe(
      'a message with method tasks/get, taskId abc',
    );
  });
});
