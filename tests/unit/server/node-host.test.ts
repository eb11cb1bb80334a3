/**
 * The Node host over real HTTP, with plain fetch: routing, the SDK's header
 * checks (T19), bad input of every kind, identity (T20) and task
 * notifications over SSE (T18, C9).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpHeadersFor, requestMeta } from '../../../src/protocol/envelope.ts';
import type { JsonRpcRequest } from '../../../src/protocol/jsonrpc.ts';
import { startNodeHost, type NodeHost } from '../../../src/server/node-host.ts';
import {
  createPlaygroundServer,
  type PlaygroundServer,
} from '../../../src/server/playground-server.ts';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const CLIENT = { name: 'node-host-test', version: '1.0.0' };

let server: PlaygroundServer;
let host: NodeHost;
let nextId = 1;

beforeAll(async () => {
  server = createPlaygroundServer({ sweepIntervalMs: 0 });
  host = await startNodeHost({ host: '127.0.0.1', port: 0, server });
});
afterAll(async () => {
  await host.close();
  await server.close();
});

interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

function request(
  method: string,
  params: Record<string, unknown> = {},
  tasks = true,
): JsonRpcRequest {
  return {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: { ...params, _meta: requestMeta(CLIENT, tasks ? TASKS : {}) },
  };
}

/** POSTs raw text with the given headers and reads the JSON reply. */
async function postRaw(body: BodyInit, headers: Record<string, string>): Promise<Reply> {
  const response = await fetch(host.url, {
    method: 'POST',
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** POSTs a request with the headers a Streamable HTTP client derives from it, optionally as someone. */
function post(
  message: JsonRpcRequest,
  options: { as?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers = {
    ...httpHeadersFor(message),
    ...(options.as ? { authorization: `Bearer ${options.as}` } : {}),
    ...options.headers,
  };
  return postRaw(JSON.stringify(message), headers);
}

async function result(message: JsonRpcRequest, as?: string): Promise<Record<string, unknown>> {
  const reply = await post(message, as === undefined ? {} : { as });
  expect(reply.body['error']).toBeUndefined();
  return reply.body['result'] as Record<string, unknown>;
}

function errorOf(reply: Reply): { code: number; message: string; data?: unknown } {
  expect(reply.body['jsonrpc']).toBe('2.0');
  return reply.body['error'] as { code: number; message: string };
}

/** The server still answers an ordinary request. */
async function expectStillServing(): Promise<void> {
  const discovered = await result(request('server/discover'));
  expect(discovered['supportedVersions']).toEqual(['2026-07-28']);
}

async function createTask(as: string | undefined, seconds = 60): Promise<string> {
  const created = await result(
    request('tools/call', { name: 'slow_compute', arguments: { seconds } }),
    as,
  );
  expect(created['resultType']).toBe('task');
  return String(created['taskId']);
}

describe('node host: routing', () => {
  it('C5: server/discover answers over HTTP with the tasks extension', async () => {
    const discovered = await result(request('server/discover'));
    expect(discovered['capabilities']).toMatchObject({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('C1: GET /mcp is 405 with Allow: POST, and other paths are 404', async () => {
    const get = await fetch(host.url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const other = await fetch(host.url.replace(/\/mcp$/, '/elsewhere'), {
      method: 'POST',
      body: '{}',
    });
    expect(other.status).toBe(404);
    await expectStillServing();
  });
});

describe('node host: T19 routing headers are checked by the SDK', () => {
  it('T19: an Mcp-Method header that disagrees with the body gets -32020', async () => {
    const reply = await post(request('tools/call', { name: 'greet', arguments: { name: 'x' } }), {
      headers: { 'mcp-method': 'tasks/get' },
    });
    expect(reply.status).toBe(400);
    expect(errorOf(reply).code).toBe(-32020);
  });

  it('T19: tasks/get with an Mcp-Name other than the taskId gets -32020; the matching one is served', async () => {
    const taskId = await createTask(undefined);
    const wrong = await post(request('tasks/get', { taskId }), {
      headers: { 'mcp-name': 'some-other-task' },
    });
    expect(errorOf(wrong).code).toBe(-32020);
    const right = await result(request('tasks/get', { taskId }));
    expect(right['taskId']).toBe(taskId);
    await result(request('tasks/cancel', { taskId }));
  });

  it('T19: tasks/get without Mcp-Name, or any request without Mcp-Method, gets -32020', async () => {
    const get = request('tasks/get', { taskId: 'abc' });
    const { ['mcp-name']: _name, ...noName } = httpHeadersFor(get);
    expect(errorOf(await postRaw(JSON.stringify(get), noName)).code).toBe(-32020);
    const list = request('tools/list');
    const { ['mcp-method']: _method, ...noMethod } = httpHeadersFor(list);
    expect(errorOf(await postRaw(JSON.stringify(list), noMethod)).code).toBe(-32020);
    await expectStillServing();
  });
});

describe('node host: bad input gets a JSON-RPC error and the server keeps serving', () => {
  const listHeaders = (): Record<string, string> => httpHeadersFor(request('tools/list'));

  it('C7: malformed JSON gets -32700', async () => {
    const reply = await postRaw('{"jsonrpc":"2.0","id":1,', listHeaders());
    expect(reply.status).toBe(400);
    expect(errorOf(reply).code).toBe(-32700);
    await expectStillServing();
  });

  it('C7: a JSON array of garbage gets -32600', async () => {
    const reply = await postRaw('[1, "two", null, {"x": []}]', listHeaders());
    expect(errorOf(reply).code).toBe(-32600);
    await expectStillServing();
  });

  it('C2, C7: wrong types get -32602, with or without the envelope', async () => {
    const bare = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":42}}';
    const bareReply = await postRaw(bare, { ...listHeaders(), 'mcp-method': 'tools/call' });
    expect(errorOf(bareReply).code).toBe(-32602);
    const typed = await post(
      { ...request('tools/call'), params: { name: 42, _meta: requestMeta(CLIENT, TASKS) } },
      { headers: { 'mcp-method': 'tools/call' } },
    );
    expect(errorOf(typed).code).toBe(-32602);
    const notObject = await postRaw('{"jsonrpc":"2.0","id":{"no":1},"method":7}', listHeaders());
    expect(errorOf(notObject).code).toBe(-32600);
    await expectStillServing();
  });

  it('C7: an unknown method gets -32601', async () => {
    expect(errorOf(await post(request('nope/nothing'))).code).toBe(-32601);
    await expectStillServing();
  });

  it('C2: a request without _meta gets -32602', async () => {
    const reply = await post({ jsonrpc: '2.0', id: nextId++, method: 'tools/list', params: {} });
    expect(errorOf(reply).code).toBe(-32602);
    await expectStillServing();
  });

  it('C3: an unsupported protocol version gets -32022 naming the supported ones', async () => {
    const message = request('tools/list');
    message.params = {
      _meta: {
        ...requestMeta(CLIENT, TASKS),
        'io.modelcontextprotocol/protocolVersion': '2099-01-01',
      },
    };
    const reply = await post(message);
    expect(errorOf(reply)).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'], requested: '2099-01-01' },
    });
    await expectStillServing();
  });

  it('C7: a content type other than JSON gets 415', async () => {
    const reply = await postRaw(JSON.stringify(request('tools/list')), {
      ...listHeaders(),
      'content-type': 'text/plain',
    });
    expect(reply.status).toBe(415);
    expect(typeof errorOf(reply).code).toBe('number');
    await expectStillServing();
  });

  it('C7: a 2 MiB body gets 413 with -32600, with or without Content-Length', async () => {
    const big = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}}`;
    const declared = await postRaw(big, listHeaders());
    expect(declared.status).toBe(413);
    expect(errorOf(declared).code).toBe(-32600);
    const chunked = await postRaw(new Blob([big]).stream(), listHeaders());
    expect(chunked.status).toBe(413);
    expect(errorOf(chunked).code).toBe(-32600);
    await expectStillServing();
  });

  it('C7: a body nested 10,000 levels deep gets an error, not a crash', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    expect(typeof errorOf(await postRaw(deep, listHeaders())).code).toBe('number');
    const message = request('tools/call', { name: 'greet', arguments: { name: 'deep' } });
    const text = JSON.stringify(message).replace(
      '"deep"',
      '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000),
    );
    const reply = await postRaw(text, httpHeadersFor(message));
    // Either a JSON-RPC error or the tool's own isError result: the bad argument is refused.
    const answer = reply.body['result'] as Record<string, unknown> | undefined;
    expect(reply.body['error'] !== undefined || answer?.['isError'] === true).toBe(true);
    await expectStillServing();
  });

  it('C7, T3: __proto__ keys pollute nothing and are not obeyed', async () => {
    const message = request('tools/call', { name: 'greet', arguments: { name: 'proto' } });
    const text = JSON.stringify(message)
      .replace('"arguments":{', '"arguments":{"__proto__":{"polluted":true},')
      .replace('"params":{', '"params":{"__proto__":{"polluted":true},');
    const reply = await postRaw(text, httpHeadersFor(message));
    expect(reply.body['result']).toMatchObject({
      content: [{ type: 'text', text: 'Hello, proto!' }],
    });
    // Capabilities smuggled in through __proto__ are not a declaration of the extension (T3).
    const call = request('tools/call', { name: 'slow_compute', arguments: { seconds: 0 } }, false);
    const smuggled = JSON.stringify(call).replace(
      '"io.modelcontextprotocol/clientCapabilities":{}',
      '"io.modelcontextprotocol/clientCapabilities":{"__proto__":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}',
    );
    expect(smuggled).toContain('__proto__');
    const sync = await postRaw(smuggled, httpHeadersFor(call));
    expect(sync.body['result']).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text' }],
    });
    const taskId = await createTask('proto-user');
    const update = await post(
      request('tasks/update', {
        taskId,
        inputResponses: JSON.parse('{"__proto__":{"polluted":true}}') as object,
      }),
      { as: 'proto-user' },
    );
    expect(update.body['result'] ?? update.body['error']).toBeDefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    await result(request('tasks/cancel', { taskId }), 'proto-user');
    await expectStillServing();
  });

  it('T20: an Authorization header that is not a bearer token gets 401', async () => {
    const reply = await post(request('tools/list'), {
      headers: { authorization: 'Basic YWxpY2U6c2VjcmV0' },
    });
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toBe('Bearer');
    await expectStillServing();
  });
});

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

/** Polls tasks/get as `as` until `done` holds (3 s at most). */
async function pollTask(
  taskId: string,
  as: string,
  done: (task: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  const start = Date.now();
  for (;;) {
    const task = await result(request('tasks/get', { taskId }), as);
    if (done(task)) return task;
    if (Date.now() - start > 3000)
      throw new Error(`task ${taskId} stuck at ${JSON.stringify(task)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('node host: T18 task notifications over SSE', () => {
  it('T18, C9: acknowledged first, then notifications/tasks tagged with the listen id, equal to tasks/get; closed on disconnect', async () => {
    const taskId = await createTask('carol', 0.5);
    const listen = request('subscriptions/listen', {
      notifications: { taskIds: [taskId, 'not-a-real-task'] },
    });
    const aborted = new AbortController();
    const response = await fetch(host.url, {
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

    const open = server.subscriptions.openCount;
    expect(open).toBeGreaterThan(0);
    aborted.abort();
    await waitFor(() => server.subscriptions.openCount === open - 1);
    await expectStillServing();
  });

  it("T18, T20: another caller's task is not agreed to", async () => {
    const before = server.subscriptions.openCount;
    const taskId = await createTask('carol');
    const listen = request('subscriptions/listen', { notifications: { taskIds: [taskId] } });
    const aborted = new AbortController();
    const response = await fetch(host.url, {
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
    await waitFor(() => server.subscriptions.openCount === before);
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
    await new Promise((resolve) => setTimeout(resolve, 50));
    await own.store.update(taskId, (record) => ({ ...record, cancelRequested: true }));
    await own.runner.settled();
    await own.close();
  });

  it('T18: a task listen without the extension gets -32021 and no stream', async () => {
    const before = server.subscriptions.openCount;
    const reply = await post(
      request('subscriptions/listen', { notifications: { taskIds: ['x'] } }, false),
    );
    expect(errorOf(reply)).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    expect(server.subscriptions.openCount).toBe(before);
  });

  it('T19, C3: a task listen passes the same header and version checks as every request', async () => {
    const before = server.subscriptions.openCount;
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
    expect(server.subscriptions.openCount).toBe(before);
    await expectStillServing();
  });
});
