/**
 * What the network can tell about each message it carries: a response names
 * the method of the request it answers (per direction), and the requests it
 * remembers for that are bounded, the oldest forgotten first.
 */
import { describe, expect, it } from 'vitest';
import { MessageTracker } from '../../../src/net/message-info.ts';
import { request, result } from '../helpers/fake-link.ts';

describe('MessageTracker', () => {
  it('C4: a response names its request method and task; a CreateTaskResult its resultType', () => {
    const tracker = new MessageTracker();
    expect(tracker.describe('out', request(1, 'tools/call', { name: 'slow_compute' }))).toEqual({
      kind: 'request',
      method: 'tools/call',
      id: 1,
    });
    expect(
      tracker.describe('in', result(1, { resultType: 'task', taskId: 't1', status: 'working' })),
    ).toEqual({
      kind: 'result',
      id: 1,
      method: 'tools/call',
      taskId: 't1',
      status: 'working',
      resultType: 'task',
    });
    tracker.describe('out', request(2, 'tasks/get', { taskId: 't1' }));
    expect(
      tracker.describe('in', { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'gone' } }),
    ).toEqual({ kind: 'error', id: 2, method: 'tasks/get', taskId: 't1' });
    expect(
      tracker.describe('in', {
        jsonrpc: '2.0',
        method: 'notifications/tasks',
        params: { taskId: 't1', status: 'completed' },
      }),
    ).toEqual({
      kind: 'notification',
      method: 'notifications/tasks',
      taskId: 't1',
      status: 'completed',
    });
    expect(tracker.describe('in', { nonsense: true })).toEqual({ kind: 'invalid' });
  });

  it('each end numbers its own requests: the same id either way answers a different request', () => {
    const tracker = new MessageTracker();
    tracker.describe('out', request(5, 'tasks/get'));
    tracker.describe('in', request(5, 'elicitation/create'));
    expect(tracker.describe('in', result(5, {})).method).toBe('tasks/get');
    expect(tracker.describe('out', result(5, {})).method).toBe('elicitation/create');
    // Not forgotten on first sight: a duplicated response names its method too.
    expect(tracker.describe('in', result(5, {})).method).toBe('tasks/get');
  });

  it('an id that reads the same as text is the same request (`7` answered as `"7"`)', () => {
    const tracker = new MessageTracker();
    tracker.describe('out', request(7, 'tasks/cancel'));
    tracker.describe('out', { jsonrpc: '2.0', id: 'a-1', method: 'tasks/list', params: {} });
    expect(tracker.describe('in', result('7' as never, {})).method).toBe('tasks/cancel');
    expect(tracker.describe('in', result('07' as never, {})).method).toBeUndefined();
    expect(tracker.describe('in', result('a-1' as never, {})).method).toBe('tasks/list');
  });

  it('remembers the last 1,000 requests of a link, both ways together, the oldest forgotten first', () => {
    const tracker = new MessageTracker();
    tracker.describe('out', request(1, 'tasks/get'));
    tracker.describe('in', request(1, 'sampling/createMessage'));
    // Sent again: it keeps its place, the oldest still.
    tracker.describe('out', request(1, 'tasks/get'));
    for (let id = 2; id <= 999; id++) tracker.describe('out', request(id, 'tasks/get'));
    expect(tracker.describe('in', result(1, {})).method).toBe('tasks/get');
    tracker.describe('out', request(1000, 'tasks/update'));
    expect(tracker.describe('in', result(1, {})).method).toBeUndefined();
    expect(tracker.describe('out', result(1, {})).method).toBe('sampling/createMessage');
    tracker.describe('out', request(1001, 'tasks/update'));
    expect(tracker.describe('out', result(1, {})).method).toBeUndefined();
    expect(tracker.describe('in', result(2, {})).method).toBe('tasks/get');
    for (let id = 1002; id <= 3000; id++) tracker.describe('out', request(id, 'tasks/list'));
    expect(tracker.describe('in', result(3000, {})).method).toBe('tasks/list');
    expect(tracker.describe('in', result(2001, {})).method).toBe('tasks/list');
    expect(tracker.describe('in', result(2000, {})).method).toBeUndefined();
  });
});
