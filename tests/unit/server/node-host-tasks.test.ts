/**
 * Tasks through the Node host, over real HTTP with plain fetch: identity
 * from the bearer token (T20), partial answers (T15), and task
 * notifications over SSE (T18, C9).
 */
import { describe, expect, it, vi } from 'vitest';
import { httpHeadersFor, requestMeta } from '../../../src/protocol/envelope.ts';
import { startNodeHost } from '../../../src/server/node-host.ts';
import { createPlaygroundServer } from '../../../src/server/playground-server.ts';
import {
  CLIENT,
  createTask,
  errorOf,
  expectStillServing,
  post,
  postRaw,
  request,
  result,
  served,
  serveNodeHost,
  TASKS,
  type Reply,
} from '../helpers/node-host-client.ts';

serveNodeHost();

describe('node host: T20 identity from the bearer token', () => {
  it("T20: another caller's task gets exactly the error of a made-up id", async () => {
    const taskId = await createTask('alice');
    const madeUp = 'made-up-task-id-0000000';
    const shape = (reply: Reply, id: string): unknown => {
      const error = errorOf(reply);
      return {
        status: reply.status,
        code: error.code,
        message: error.message.replaceAll(id, '<id>'),
        data: error.data,
      };
    };
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const extra = method === 'tasks/update' ? { inputResponses: {} } : {};
      const bobs = shape(await post(request(method, { taskId, ...extra }), { as: 'bob' }), taskId);
      const missing = shape(
        await post(request(method, { taskId: madeUp, ...extra }), { as: 'bob' }),
        madeUp,
      );
      expect(bobs).toMatchObject({ code: -32602 });
      expect(bobs).toEqual(missing);
    }
    // Neither bob nor an anonymous caller could touch it: alice still sees it running.
    const anonymous = await post(request('tasks/get', { taskId }));
    expect(errorOf(anonymous).code).toBe(-32602);
    const alices = await result(request('tasks/get', { taskId }), 'alice');
    expect(alices['status']).toBe('working');
    await result(request('tasks/cancel', { taskId }), 'alice');
  });
});

/** Polls tasks/get as `as` until `done` holds; fails the test after 3 s. */
function pollTask(
  taskId: string,
  as: string,
  done: (task: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  return vi.waitFor(
    async () => {
      const task = await result(request('tasks/get', { taskId }), as);
      if (!done(task)) throw new Error(`task ${taskId} still at ${JSON.stringify(task)}`);
      return task;
    },
    { timeout: 3000, interval: 20 },
  );
}

describe('node host: T15 partial answers', () => {
  it('T10, T14, T15: after a partial tasks/update only the unanswered key is outstanding, at once', async () => {
    const created = await result(
      request('tools/call', { name: 'multi_input', arguments: {} }),
      'dave',
    );
    const taskId = String(created['taskId']);
    const asked = await pollTask(taskId, 'dave', (task) => task['status'] === 'input_required');
    const [first, second] = Object.keys(asked['inputRequests'] as object);
    expect(second).toBeDefined();
    await result(
      request('tasks/update', {
        taskId,
        inputResponses: { [first!]: { action: 'accept', content: { name: 'Ada' } } },
      }),
      'dave',
    );
    // No waiting: the answered key is gone from the very next poll, and the task still waits for the other.
    const partial = await result(request('tasks/get', { taskId }), 'dave');
    expect(partial['status']).toBe('input_required');
    expect(Object.keys(partial['inputRequests'] as object)).toEqual([second]);
    await result(
      request('tasks/update', {
        taskId,
        inputResponses: { [second!]: { action: 'accept', content: { color: 'green' } } },
      }),
      'dave',
    );
    const done = await pollTask(taskId, 'dave', (task) => task['status'] === 'completed');
    expect(done['result']).toMatchObject({
      content: [{ type: 'text', text: 'name=Ada, color=green' }],
    });
  });
});

/** Reads SSE `data:` frames from a response as JSON-RPC messages. */
async function* sseMessages(response: Response): AsyncGenerator<Record<string, unknown>> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data) yield JSON.parse(data) as Record<string, unknown>;
    }
  }
}

describe('node host: T18 task notifications over SSE', () => {
  it('T18, C9: acknowledged first, then notifications/tasks tagged with the listen id, equal to tasks/get; closed on disconnect', async () => {
    const taskId = await createTask('carol', 0.5);
    const listen = request('subscriptions/listen', {
      notifications: { taskIds: [taskId, 'not-a-real-task'] },
    });
    const aborted = new AbortController();
    const response = await fetch(served.host.url, {
      method: 'POST',
      headers: { ...httpHeadersFor(listen), authorization: 'Bearer carol' },
      body: JSON.stringify(listen),
      signal: aborted.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const subscriptionId = { 'io.modelcontextprotocol/subscriptionId': listen.id };

    const messages = sseMessages(response);
    const ack = (await messages.next()).value;
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] }, _meta: subscriptionId },
    });
    let last: Record<string, unknown> | undefined;
    for await (const message of messages) {
      expect(message).toMatchObject({
        method: 'notifications/tasks',
        params: { taskId, _meta: subscriptionId },
      });
      last = message['params'] as Record<string, unknown>;
      if (last['status'] === 'completed') break;
    }
    const { _meta: _pushedMeta, ...pushed } = last!;
    const {
      resultType: _resultType,
      _meta: _polledMeta,
      ...polled
    } = await result(request('tasks/get', { taskId }), 'carol');
    expect(pushed).toEqual(polled);

    const open = served.server.subscriptions.openCount;
    expect(open).toBeGreaterThan(0);
    aborted.abort();
    await expect.poll(() => served.server.subscriptions.openCount).toBe(open - 1);
    await expectStillServing();
  });

  it("T18, T20: another caller's task is not agreed to", async () => {
    const before = served.server.subscriptions.openCount;
    const taskId = await createTask('carol');
    const listen = request('subscriptions/listen', { notifications: { taskIds: [taskId] } });
    const aborted = new AbortController();
    const response = await fetch(served.host.url, {
      method: 'POST',
      headers: { ...httpHeadersFor(listen), authorization: 'Bearer mallory' },
      body: JSON.stringify(listen),
      signal: aborted.signal,
    });
    const ack = (await sseMessages(response).next()).value;
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [] } },
    });
    aborted.abort();
    await result(request('tasks/cancel', { taskId }), 'carol');
    await expect.poll(() => served.server.subscriptions.openCount).toBe(before);
  });

  it('C9: closing the host ends an open task stream with the listen result, and closes the subscription', async () => {
    const own = createPlaygroundServer({ sweepIntervalMs: 0 });
    const other = await startNodeHost({ host: '127.0.0.1', port: 0, server: own });
    const call = request('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } });
    const created = await (
      await fetch(other.url, {
        method: 'POST',
        headers: httpHeadersFor(call),
        body: JSON.stringify(call),
      })
    ).json();
    const taskId = String((created as { result: { taskId: string } }).result.taskId);
    const listen = request('subscriptions/listen', { notifications: { taskIds: [taskId] } });
    const response = await fetch(other.url, {
      method: 'POST',
      headers: httpHeadersFor(listen),
      body: JSON.stringify(listen),
    });
    const messages = sseMessages(response);
    expect((await messages.next()).value).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
    });
    // A change whose push is still in flight when the stream ends must not be written to it (no crash).
    const change = own.store.update(taskId, (record) => ({
      ...record,
      statusMessage: 'racing the shutdown',
    }));
    await other.close();
    await change;
    const rest: Record<string, unknown>[] = [];
    for await (const message of messages) rest.push(message);
    expect(rest.at(-1)).toMatchObject({
      id: listen.id,
      result: {
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/subscriptionId': listen.id },
      },
    });
    expect(own.subscriptions.openCount).toBe(0);
    await own.store.update(taskId, (record) => ({ ...record, cancelRequested: true }));
    await own.runner.settled();
    await own.close();
  });

  it('T18: a task listen without the extension gets -32021 and no stream', async () => {
    const before = served.server.subscriptions.openCount;
    const reply = await post(
      request('subscriptions/listen', { notifications: { taskIds: ['x'] } }, false),
    );
    expect(errorOf(reply)).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    expect(served.server.subscriptions.openCount).toBe(before);
  });

  it('T19, C3: a task listen passes the same header and version checks as every request', async () => {
    const before = served.server.subscriptions.openCount;
    const listen = request('subscriptions/listen', { notifications: { taskIds: ['x'] } });
    const { ['mcp-protocol-version']: _version, ...noVersion } = httpHeadersFor(listen);
    expect(errorOf(await postRaw(JSON.stringify(listen), noVersion)).code).toBe(-32020);
    const old = request('subscriptions/listen', { notifications: { taskIds: ['x'] } });
    old.params = {
      ...old.params,
      _meta: {
        ...requestMeta(CLIENT, TASKS),
        'io.modelcontextprotocol/protocolVersion': '2099-01-01',
      },
    };
    expect(errorOf(await post(old)).code).toBe(-32022);
    expect(served.server.subscriptions.openCount).toBe(before);
    await expectStillServing();
  });
});
