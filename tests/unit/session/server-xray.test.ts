/**
 * The x-ray: the server's store, told beside the MCP wire, read by the page
 * session next to what its client last saw. Through the real stack (the page's
 * PageSession in front of the real server, on a fake clock): between polls
 * the two disagree, and the next tasks/get makes them agree (T12).
 */
import { describe, expect, it } from 'vitest';
import type { WorkerEvent } from '../../../src/protocol/worker-control.ts';
import { Emitter } from '../../../src/session/emitter.ts';
import { ServerXray } from '../../../src/session/server-xray.ts';
import type { SessionEvents } from '../../../src/session/session-events.ts';
import type { RealStack } from '../helpers/real-stack.ts';
import { freshRealStackEachTest } from '../helpers/real-stack-each.ts';

describe('the x-ray in the page session (real stack, fake clock)', () => {
  let stack: RealStack;
  freshRealStackEachTest((fresh) => (stack = fresh));

  it('T12: the store says completed before the client learns it; the next tasks/get makes them agree', async () => {
    await stack.open();
    const session = stack.page.session;
    stack.call('slow_compute', { seconds: 1, pollIntervalMs: 5000 }, true);
    await stack.advance(50);
    const actor = session.tasks[0]!;
    const { taskId } = actor.getSnapshot().context;
    expect(session.xray.reading(taskId)).toMatchObject({ kind: 'stored', status: 'working' });

    // The job ends after 1 s; the client's first poll is due at 5 s.
    await stack.advance(1950);
    expect(session.xray.reading(taskId)).toMatchObject({ kind: 'stored', status: 'completed' });
    expect(actor.getSnapshot().context.task.status).toBe('working');

    await stack.advance(3500);
    expect(actor.getSnapshot().context.task.status).toBe('completed');
    expect(session.xray.reading(taskId)).toMatchObject({ kind: 'stored', status: 'completed' });
  });

  it('T13: with the server killed there is no x-ray rather than a stale one; a restarted server on the kept store reports it afresh', async () => {
    await stack.open();
    const session = stack.page.session;
    const heard: (string | undefined)[] = [];
    session.on('xray', ({ taskId }) => heard.push(taskId));
    stack.call('slow_compute', { seconds: 30, pollIntervalMs: 1000 }, true);
    await stack.advance(50);
    const { taskId } = session.tasks[0]!.getSnapshot().context;
    expect(heard).toContain(taskId);

    session.killServer();
    expect(session.xray.reading(taskId)).toEqual({ kind: 'no-xray', reason: 'server down' });
    expect(heard.at(-1)).toBeUndefined();

    session.restartServer();
    expect(session.xray.reading(taskId)).toEqual({ kind: 'no-xray', reason: 'server starting' });
    await stack.advance(50);
    // This harness keeps its store across a restart, as IndexedDB does (helpers/server-node.ts).
    expect(session.xray.reading(taskId)).toMatchObject({ kind: 'stored', status: 'working' });
  });
});

describe('ServerXray', () => {
  const endpoint = { onEvent: () => () => {} };
  const stored = (taskId: string, status: 'working' | 'completed'): WorkerEvent => ({
    type: 'task-stored',
    taskId,
    status,
    lastUpdatedAt: 5,
  });

  it('T13: tells a deleted task from one never stored, and forgets a dead server', () => {
    const changes: (string | undefined)[] = [];
    const events = new Emitter<SessionEvents>();
    events.on('xray', ({ taskId }) => changes.push(taskId));
    const xray = new ServerXray(endpoint, events);
    xray.heard(stored('a', 'working'));
    // Nothing is heard from a server the page has not started.
    expect(xray.reading('a')).toEqual({ kind: 'no-xray', reason: 'server down' });

    events.emit('server', { running: true, generation: 1 });
    xray.heard(stored('a', 'working'));
    expect(xray.reading('a')).toEqual({ kind: 'stored', status: 'working', since: 5 });
    // Before `ready`, a task not told of is unknown, not absent.
    expect(xray.reading('b')).toEqual({ kind: 'no-xray', reason: 'server starting' });
    xray.heard({ type: 'ready', store: 'memory' });
    expect(xray.reading('b')).toEqual({ kind: 'not-stored', deleted: false });
    xray.heard({ type: 'task-deleted', taskId: 'a' });
    expect(xray.reading('a')).toEqual({ kind: 'not-stored', deleted: true });

    events.emit('server', { running: false, generation: 1 });
    expect(xray.reading('a')).toEqual({ kind: 'no-xray', reason: 'server down' });
    expect(changes).toEqual([undefined, 'a', undefined, 'a', undefined]);
  });

  it("T12: a server the page does not run (the learner's own) never has an x-ray, running or not", () => {
    const events = new Emitter<SessionEvents>();
    const xray = new ServerXray({ ...endpoint, remote: true }, events);
    events.emit('server', { running: true, generation: 1 });
    xray.heard({ type: 'ready', store: 'memory' });
    expect(xray.reading('a')).toEqual({ kind: 'no-xray', reason: 'not our server' });
  });
});
