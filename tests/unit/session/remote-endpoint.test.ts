/**
 * The page's session on a remote server (`RemoteEndpoint`): meeting it with
 * `server/discover`, every kind of bad input told in words (not http(s),
 * down, CORS, 401, no 2026-07-28, a task to a client that did not declare
 * the extension), and the session against the real Node host over real
 * HTTP: a task followed across the server going away and a reload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../src/net/http-transport.ts';
import { PageSession } from '../../../src/session/page-session.ts';
import {
  chooseBuiltInServer,
  readRemoteChoice,
  saveRemoteChoice,
  type ChoiceStorage,
} from '../../../src/session/remote-choice.ts';
import { journalNameFor, RemoteEndpoint } from '../../../src/session/remote-endpoint.ts';
import {
  parseServerUrl,
  proxyAddressIn,
  proxyAdviceFor,
} from '../../../src/session/server-discovery.ts';
import { startNodeHost, type NodeHost } from '../../../src/server/node-host.ts';
import { MemoryPageStore } from '../../../src/store/memory-page-store.ts';

const SERVER = new URL('http://server.test/mcp');

function reply(body: unknown, result: Record<string, unknown>): Response {
  const id = (body as { id: unknown }).id;
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), {
    headers: { 'content-type': 'application/json' },
  });
}

const DISCOVERED = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'their-server', version: '3.1' } },
};

/** A scripted server: `server/discover` as given, anything else by `other`. */
function scripted(
  other: (method: string, body: unknown) => Response,
  discovered: Record<string, unknown> = DISCOVERED,
): FetchLike {
  return async (_url, init = {}) => {
    const body = JSON.parse(String(init.body)) as { method: string };
    return body.method === 'server/discover' ? reply(body, discovered) : other(body.method, body);
  };
}

function sessionOn(endpoint: RemoteEndpoint, pageStore = new MemoryPageStore()): PageSession {
  return new PageSession({
    endpoint,
    pageStore,
    preferences: undefined,
    clientName: 'remote-test',
  });
}

describe('remote server: bad input, each in words', () => {
  it('a URL that is not http(s), or no URL at all, is refused before anything is sent', () => {
    expect(parseServerUrl('ftp://example.com/mcp')).toEqual({
      error: expect.stringMatching(/ftp: is not http or https/),
    });
    expect(parseServerUrl('localhost:3939')).toEqual({
      error: expect.stringMatching(/not http or https|not a URL/),
    });
    expect(parseServerUrl('just words')).toEqual({ error: expect.stringMatching(/not a URL/) });
    expect(parseServerUrl('  ')).toEqual({ error: expect.stringMatching(/Enter the URL/) });
    expect(parseServerUrl(' http://127.0.0.1:3939/mcp ')).toEqual({
      url: new URL('http://127.0.0.1:3939/mcp'),
    });
  });

  it('C5: server/discover is read: name, version, versions, whether it declares the tasks extension', async () => {
    const endpoint = new RemoteEndpoint({ url: SERVER, fetch: scripted(() => new Response()) });
    const transport = await endpoint.connect();
    expect(endpoint.status.discovery).toEqual({
      name: 'their-server',
      version: '3.1',
      supportedVersions: ['2026-07-28'],
      declaresTasks: true,
    });
    expect(endpoint.status.problem).toBeUndefined();
    transport.close();
  });

  it('a server that is down: the connect attempt fails saying nothing answers there', async () => {
    const down: FetchLike = () => Promise.reject(new TypeError('Failed to fetch'));
    const endpoint = new RemoteEndpoint({ url: SERVER, fetch: down });
    await expect(endpoint.connect()).rejects.toThrow(
      /Nothing answers at http:\/\/server\.test\/mcp/,
    );
    expect(endpoint.status.problem?.kind).toBe('unreachable');
  });

  it('CORS: the answer is hidden but an opaque request gets through, so the page says CORS and what to do', async () => {
    const corsBlocked: FetchLike = (_url, init) =>
      init?.mode === 'no-cors'
        ? Promise.resolve(new Response(null))
        : Promise.reject(new TypeError('Failed to fetch'));
    const endpoint = new RemoteEndpoint({
      url: SERVER,
      fetch: corsBlocked,
      origin: 'http://page.test',
    });
    await expect(endpoint.connect()).rejects.toThrow(/CORS/);
    expect(endpoint.status.problem?.kind).toBe('cors');
    expect(endpoint.status.problem?.message).toMatch(/answer CORS for this origin.*proxy/);
    expect(endpoint.status.problem?.message).toContain('http://page.test');
    // The way round it, with the learner's URL filled in: the command the page shows and copies.
    expect(endpoint.status.problem?.proxy).toEqual({
      command: 'npm run proxy -- http://server.test/mcp',
      url: 'http://127.0.0.1:3941/mcp',
    });
    expect(endpoint.status.problem?.message).toContain(
      'run npm run proxy -- http://server.test/mcp in this project, then connect to http://127.0.0.1:3941/mcp',
    );
  });

  it('CORS: the proxy command quotes a URL a shell would split, and keeps its path and query', () => {
    expect(proxyAdviceFor(new URL('https://mcp.example.com/v1/mcp?key=a&region=eu'))).toEqual({
      command: "npm run proxy -- 'https://mcp.example.com/v1/mcp?key=a&region=eu'",
      url: 'http://127.0.0.1:3941/v1/mcp?key=a&region=eu',
    });
    expect(proxyAdviceFor(new URL("https://x.example/it's")).command).toBe(
      "npm run proxy -- 'https://x.example/it'\\''s'",
    );
  });

  it('CORS: a proxy started with --port is connected to from the line it printed, pasted whole', () => {
    const printed = [
      'proxy: forwarding to http://server.test/mcp, with CORS for pages served from this machine',
      'proxy: listening on http://127.0.0.1:4017/mcp  (connect the page to this address)',
    ];
    expect(proxyAddressIn(printed[1]!)).toBe('http://127.0.0.1:4017/mcp');
    // Both lines pasted: the address it listens on, not the target it forwards to.
    expect(proxyAddressIn(printed.join('\n'))).toBe('http://127.0.0.1:4017/mcp');
    expect(proxyAddressIn('  http://[::1]:4017/v1/mcp?key=a  ')).toBe(
      'http://[::1]:4017/v1/mcp?key=a',
    );
    expect(proxyAddressIn('proxy: stopping')).toBeUndefined();
  });

  it('a 401 on server/discover: the connect attempt fails naming the bearer token', async () => {
    const locked: FetchLike = async () =>
      new Response('{"error":"unauthorized"}', {
        status: 401,
        headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer' },
      });
    const endpoint = new RemoteEndpoint({ url: SERVER, fetch: locked });
    await expect(endpoint.connect()).rejects.toThrow(/HTTP 401.*bearer token/);
    expect(endpoint.status.problem?.kind).toBe('refused');
  });

  it('C1: a server that does not speak 2026-07-28 is named, with what it speaks', async () => {
    const old = scripted(() => new Response(), {
      ...DISCOVERED,
      supportedVersions: ['2025-11-25'],
    });
    const endpoint = new RemoteEndpoint({ url: SERVER, fetch: old });
    await expect(endpoint.connect()).rejects.toThrow(/speaks 2025-11-25, not 2026-07-28/);
  });

  it('T3: a task handle to a call that did not declare the extension is refused, and the session stays usable', async () => {
    const taskAlways = scripted((method, body) =>
      method === 'tools/list'
        ? reply(body, {
            resultType: 'complete',
            tools: [{ name: 'job', inputSchema: { type: 'object' } }],
          })
        : reply(body, {
            resultType: 'task',
            taskId: 'stray',
            status: 'working',
            createdAt: '2026-07-28T00:00:00Z',
            lastUpdatedAt: '2026-07-28T00:00:00Z',
            ttlMs: 60_000,
            pollIntervalMs: 1000,
          }),
    );
    const session = sessionOn(new RemoteEndpoint({ url: SERVER, fetch: taskAlways }));
    await session.start();
    expect(session.tools.tools.map((tool) => tool.name)).toEqual(['job']);
    await expect(
      session.callTool({ name: 'job', arguments: {}, tasks: false }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/did not declare the tasks extension \(T3\)/),
    });
    expect(session.tasks).toHaveLength(0);
    await session.loadTools();
    expect(session.tools.error).toBeUndefined();
    await session.close();
  });
});

describe('remote server: the choice kept', () => {
  function storages(): ChoiceStorage {
    const make = () => {
      const map = new Map<string, string>();
      return {
        getItem: (key: string) => map.get(key) ?? null,
        setItem: (key: string, value: string) => void map.set(key, value),
        removeItem: (key: string) => void map.delete(key),
      };
    };
    return { local: make(), session: make() };
  }

  it('the URL in localStorage, the token only for the session unless remembered; back to the built-in server', () => {
    const storage = storages();
    saveRemoteChoice(storage, { url: SERVER, token: 'sekrit', remember: false });
    expect(readRemoteChoice(storage)).toEqual({ url: SERVER, token: 'sekrit', remember: false });
    expect(storage.local?.getItem('mcp-tasks-playground:remote-token')).toBeNull();
    // A new browser session: the token is gone, the URL stays.
    const later = { local: storage.local, session: storages().session };
    expect(readRemoteChoice(later)).toEqual({ url: SERVER, token: undefined, remember: false });
    saveRemoteChoice(storage, { url: SERVER, token: 'sekrit', remember: true });
    expect(readRemoteChoice({ local: storage.local, session: storages().session })?.token).toBe(
      'sekrit',
    );
    chooseBuiltInServer(storage);
    expect(readRemoteChoice(storage)).toBeUndefined();
    expect(journalNameFor(SERVER)).toBe('mcp-tasks-playground-page@http://server.test/mcp');
  });
});

describe('remote server: the session over real HTTP', () => {
  let host: NodeHost;
  beforeAll(async () => {
    host = await startNodeHost({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => host.close());

  it('C8, M3, T12: a task followed while the server cannot be reached is kept, finishes when it is back, and resumes after a reload', async () => {
    let down = false;
    const gated: FetchLike = (url, init) =>
      down ? Promise.reject(new TypeError('Failed to fetch')) : fetch(url, init);
    const pageStore = new MemoryPageStore();
    const endpoint = new RemoteEndpoint({ url: new URL(host.url), token: 'dana', fetch: gated });
    const session = sessionOn(endpoint, pageStore);
    await session.start();
    expect(endpoint.status.discovery?.declaresTasks).toBe(true);
    expect(session.tools.tools.map((tool) => tool.name)).toContain('slow_compute');
    const outcome = await session.callTool({
      name: 'slow_compute',
      arguments: { seconds: 1.5 },
      tasks: true,
    });
    expect(outcome.kind).toBe('task');
    const taskId = outcome.kind === 'task' ? outcome.task.taskId : '';

    down = true;
    session.dropConnection();
    await expect.poll(() => endpoint.status.problem?.kind).toBe('unreachable');
    expect(session.connection.state).toBe('reconnecting');
    expect(session.tasks.map((actor) => actor.getSnapshot().context.taskId)).toEqual([taskId]);

    down = false;
    await session.whenConnected();
    await expect
      .poll(() => session.tasks[0]?.getSnapshot().context.task.status, { timeout: 15_000 })
      .toBe('completed');
    await session.close();

    // A reload: the journal of this server brings the task back.
    const reloaded = sessionOn(
      new RemoteEndpoint({ url: new URL(host.url), token: 'dana' }),
      pageStore,
    );
    await reloaded.start();
    expect(reloaded.tasks.map((actor) => actor.getSnapshot().context.taskId)).toEqual([taskId]);
    await reloaded.close();
  });
});
