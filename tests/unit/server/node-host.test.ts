/**
 * The Node host's HTTP face, over real HTTP with plain fetch: routing, the
 * SDK's routing-header checks (T19), and bad input of every kind, each
 * answered with a fitting JSON-RPC error while the host keeps serving.
 */
import { describe, expect, it } from 'vitest';
import { httpHeadersFor, requestMeta } from '../../../src/protocol/envelope.ts';
import {
  CLIENT,
  TASKS,
  errorOf,
  expectStillServing,
  post,
  postRaw,
  request,
  result,
  served,
  serveNodeHost,
  createTask,
} from '../helpers/node-host-client.ts';

serveNodeHost();

describe('node host: routing', () => {
  it('C5: server/discover answers over HTTP with the tasks extension', async () => {
    const discovered = await result(request('server/discover'));
    expect(discovered['capabilities']).toMatchObject({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    expect(served.host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('C1: GET /mcp is 405 with Allow: POST, and other paths are 404', async () => {
    const get = await fetch(served.host.url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const other = await fetch(served.host.url.replace(/\/mcp$/, '/elsewhere'), {
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
    const reply = await post({ jsonrpc: '2.0', id: 'no-meta', method: 'tools/list', params: {} });
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
