/**
 * The HTTP link to a remote server (the SDK's Streamable HTTP client
 * transport inside ours): the MCP headers each POST carries, the HTTP facts
 * tied to each answer, and every kind of bad answer, each failing one
 * request in words while the link stays usable, or breaking the link when
 * no server answered at all. A fake fetch plays the server; the last test
 * talks to the real Node host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFactsOf } from '../../../src/net/http-facts.ts';
import { HttpTransport, type FetchLike } from '../../../src/net/http-transport.ts';
import type { Scheduler } from '../../../src/net/scheduler.ts';
import type { RequestFailure } from '../../../src/net/transport.ts';
import { clientCapabilities, requestMeta } from '../../../src/protocol/envelope.ts';
import { startNodeHost, type NodeHost } from '../../../src/server/node-host.ts';

const URL_ = new URL('http://server.test/mcp');

function request(id: number, method: string, params: Record<string, unknown> = {}) {
  const meta = requestMeta({ name: 't', version: '1' }, clientCapabilities({ tasks: true }));
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } };
}

/** A fetch that answers each POST with `reply(body, headers)` and records what it was sent. */
function fakeFetch(reply: (body: unknown, headers: Headers) => Response | Promise<Response>) {
  const sent: { headers: Headers; body: unknown; signal: AbortSignal | undefined }[] = [];
  const fetchFn: FetchLike = async (_url, init = {}) => {
    const body: unknown = JSON.parse(String(init.body));
    const headers = new Headers(init.headers);
    sent.push({ headers, body, signal: init.signal ?? undefined });
    return reply(body, headers);
  };
  return { fetchFn, sent };
}

function json(value: unknown, status = 200, type = 'application/json'): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'content-type': type } });
}

function answer(body: unknown, result: Record<string, unknown>): Response {
  const id = (body as { id: number }).id;
  return json({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...result } });
}

/** Collects what the transport hands on. */
function open(fetchFn: FetchLike, extra: { scheduler?: Scheduler; token?: string } = {}) {
  const transport = new HttpTransport({ url: URL_, fetch: fetchFn, ...extra });
  const seen = {
    messages: [] as unknown[],
    failures: [] as RequestFailure[],
    closed: undefined as string | undefined,
  };
  transport.onmessage = (message) => seen.messages.push(message);
  transport.onfailure = (failure) => seen.failures.push(failure);
  transport.onclose = (reason) => (seen.closed = reason);
  return { transport, seen };
}

describe('HTTP transport: what each POST carries', () => {
  it('T19: Mcp-Protocol-Version, Mcp-Method, Mcp-Name and the bearer token, and the HTTP facts on the answer', async () => {
    const { fetchFn, sent } = fakeFetch((body) => answer(body, { content: [] }));
    const { transport, seen } = open(fetchFn, { token: 'alice' });
    await transport.start();
    await transport.send(request(1, 'tools/call', { name: 'slow_compute', arguments: {} }));
    await transport.send(request(2, 'tasks/get', { taskId: 'task-9' }));
    expect(sent[0]!.headers.get('mcp-protocol-version')).toBe('2026-07-28');
    expect(sent[0]!.headers.get('mcp-method')).toBe('tools/call');
    expect(sent[0]!.headers.get('mcp-name')).toBe('slow_compute');
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer alice');
    expect(sent[1]!.headers.get('mcp-name')).toBe('task-9');
    expect(seen.messages).toHaveLength(2);
    const facts = httpFactsOf(seen.messages[1]);
    expect(facts).toMatchObject({
      status: 200,
      contentType: 'application/json',
      requestHeaders: {
        'mcp-method': 'tasks/get',
        'mcp-name': 'task-9',
        authorization: 'Bearer …',
      },
    });
    expect(JSON.stringify(facts)).not.toContain('alice');
  });

  it('C8: close() aborts every fetch in flight and hands on no late answer', async () => {
    let release: (() => void) | undefined;
    const { fetchFn, sent } = fakeFetch(
      (body) =>
        new Promise((resolve) => {
          release = () => resolve(answer(body, {}));
        }),
    );
    const { transport, seen } = open(fetchFn);
    await transport.start();
    const sending = transport.send(request(1, 'tasks/get', { taskId: 't' }));
    await expect.poll(() => sent.length).toBe(1);
    transport.close('connection dropped by the learner');
    expect(sent[0]!.signal?.aborted).toBe(true);
    release?.();
    await sending;
    expect(seen.closed).toBe('connection dropped by the learner');
    expect(seen.messages).toEqual([]);
    expect(seen.failures).toEqual([]);
  });
});

describe('HTTP transport: bad answers fail one request, in words', () => {
  const cases: [string, (body: unknown) => Response, RegExp][] = [
    ['a 401', () => json({ error: 'no' }, 401), /HTTP 401.*bearer token/],
    [
      'HTML instead of JSON',
      () =>
        new Response('<html><body>Hi</body></html>', { headers: { 'content-type': 'text/html' } }),
      /HTML page, not JSON-RPC.*MCP endpoint/,
    ],
    ['JSON that is not JSON-RPC', () => json({ hello: 'world' }), /not a JSON-RPC message/],
    [
      'text that says JSON but is not',
      () => new Response('{oops', { headers: { 'content-type': 'application/json' } }),
      /not valid JSON/,
    ],
    ['a 500 with a text body', () => new Response('boom', { status: 500 }), /HTTP 500.*boom/],
    [
      'a JSON-RPC answer to another id',
      () => json({ jsonrpc: '2.0', id: 999, result: {} }),
      /does not carry the request's id/,
    ],
  ];
  for (const [what, reply, message] of cases) {
    it(`${what}: that request fails with a clear message, the link stays open`, async () => {
      const { fetchFn } = fakeFetch(reply);
      const { transport, seen } = open(fetchFn);
      await transport.start();
      await transport.send(request(7, 'tools/list'));
      expect(seen.failures).toHaveLength(1);
      expect(seen.failures[0]!.requestId).toBe(7);
      expect(seen.failures[0]!.message).toMatch(message);
      expect(seen.closed).toBeUndefined();
      expect(transport.closed).toBe(false);
    });
  }

  it('a server that never answers: the request fails after the timeout (on the scheduler)', async () => {
    const timers: (() => void)[] = [];
    const scheduler: Scheduler = {
      now: () => 0,
      setTimeout: (callback) => timers.push(callback),
      clearTimeout: () => {},
    };
    const fetchFn: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    const { transport, seen } = open(fetchFn, { scheduler });
    await transport.start();
    const sending = transport.send(request(3, 'tools/list'));
    await expect.poll(() => timers.length).toBe(1);
    timers[0]!();
    await sending;
    expect(seen.failures).toEqual([
      { requestId: 3, message: 'no answer from server.test within 30 s' },
    ]);
    expect(seen.closed).toBeUndefined();
  });

  it('C8: a server that is down (fetch rejects) breaks the link, so the client reconnects and re-issues', async () => {
    const fetchFn: FetchLike = () => Promise.reject(new TypeError('Failed to fetch'));
    const { transport, seen } = open(fetchFn);
    await transport.start();
    await transport.send(request(4, 'tasks/get', { taskId: 't' }));
    expect(seen.closed).toBe('could not reach server.test (Failed to fetch)');
    expect(seen.failures).toEqual([]);
  });
});

describe('HTTP transport: against the real Node host', () => {
  let host: NodeHost;
  beforeAll(async () => {
    host = await startNodeHost({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => host.close());

  it('T7, T19: a tools/call over real HTTP becomes a task, with the headers the SDK checks', async () => {
    const transport = new HttpTransport({ url: new URL(host.url), token: 'bob' });
    const messages: unknown[] = [];
    transport.onmessage = (message) => messages.push(message);
    await transport.start();
    await transport.send(
      request(1, 'tools/call', { name: 'slow_compute', arguments: { seconds: 5 } }),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ id: 1, result: { resultType: 'task', status: 'working' } });
    expect(httpFactsOf(messages[0])).toMatchObject({
      status: 200,
      requestHeaders: { 'mcp-method': 'tools/call', 'mcp-name': 'slow_compute' },
    });
    transport.close();
  });
});
