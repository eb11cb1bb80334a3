/**
 * `npm run proxy`: a server that sends no CORS headers, reached through the
 * proxy, answers the same bytes and headers as it does directly (T19's
 * `Mcp-*` headers included, both ways), with CORS added for the page's
 * origin; the preflight is answered; an SSE answer streams event by event;
 * a target that is down gives a 502 in words; bad arguments exit 2.
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCorsProxy, type CorsProxy } from '../../../scripts/proxy/cors-proxy.ts';
import { parseProxyArgs } from '../../../scripts/proxy/proxy-args.ts';
import { PROXIED_TASKS_GET_HEADERS } from '../helpers/proxied-request.ts';

const PAGE = 'http://127.0.0.1:5173';
/** Odd spacing and non-ASCII text: any re-encoding on the way would change these bytes. */
const REQUEST_BODY =
  '{"jsonrpc":"2.0", "id":7,"method":"tasks/get","params":{"taskId":"t-\u00e9\u2603"}}';
const ANSWER_BODY = '{ "jsonrpc":"2.0","id":7,  "result":{"status":"working","note":"\u00fc"}}\n';

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let target: Server;
let targetUrl: URL;
let proxy: CorsProxy;
const received: Received[] = [];
let releaseSecondEvent: () => void = () => {};

beforeAll(async () => {
  // A server with no CORS at all: JSON at /mcp, SSE at /mcp?stream, which waits for the test.
  target = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url?.endsWith('?stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's-1' });
        res.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/tasks"}\n\n');
        releaseSecondEvent = () =>
          res.end('event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{}}\n\n');
        return;
      }
      res.writeHead(200, {
        'content-type': 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'x-custom-answer': 'kept',
        // A target's own CORS answer, for another origin: replaced, never passed on.
        'access-control-allow-origin': 'https://elsewhere.example',
      });
      res.end(ANSWER_BODY);
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = new URL(`http://127.0.0.1:${(target.address() as AddressInfo).port}/mcp`);
  proxy = await startCorsProxy({ target: targetUrl });
});

afterAll(async () => {
  await proxy.close();
  target.closeAllConnections();
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

const requestHeaders = { ...PROXIED_TASKS_GET_HEADERS, 'mcp-param-region': 'eu' };

/** The headers that say something about the exchange (not the connection, the date or CORS). */
function meaningful(headers: Headers | IncomingHttpHeaders): Record<string, string> {
  const entries =
    headers instanceof Headers
      ? [...headers.entries()]
      : Object.entries(headers).map(([k, v]) => [k, String(v)] as const);
  const hopByHop = [
    'connection',
    'keep-alive',
    'date',
    'host',
    'origin',
    'vary',
    'transfer-encoding',
  ];
  return Object.fromEntries(
    entries.filter(([name]) => !hopByHop.includes(name) && !name.startsWith('access-control-')),
  );
}

describe('npm run proxy: CORS in front of a server that sends none', () => {
  it('T19: request and answer bytes and Mcp-* headers through the proxy equal those direct', async () => {
    received.length = 0;
    const direct = await fetch(targetUrl, {
      method: 'POST',
      headers: requestHeaders,
      body: REQUEST_BODY,
    });
    const directBytes = Buffer.from(await direct.arrayBuffer());
    const proxied = await fetch(proxy.url, {
      method: 'POST',
      headers: { ...requestHeaders, origin: PAGE },
      body: REQUEST_BODY,
    });
    const proxiedBytes = Buffer.from(await proxied.arrayBuffer());

    expect(proxy.url.pathname).toBe('/mcp');
    expect(proxied.status).toBe(direct.status);
    expect(proxiedBytes.equals(directBytes)).toBe(true);
    expect(proxiedBytes.toString('utf8')).toBe(ANSWER_BODY);
    expect(meaningful(proxied.headers)).toEqual(meaningful(direct.headers));
    expect(proxied.headers.get('mcp-protocol-version')).toBe('2026-07-28');

    const [atTargetDirect, atTargetProxied] = received;
    expect(atTargetProxied!.body.equals(atTargetDirect!.body)).toBe(true);
    expect(atTargetProxied!.body.toString('utf8')).toBe(REQUEST_BODY);
    expect(meaningful(atTargetProxied!.headers)).toEqual(meaningful(atTargetDirect!.headers));
    expect(atTargetProxied!.headers['mcp-name']).toBe('t-x');
    // The page's origin stays with the proxy; the target sees its own host.
    expect(atTargetProxied!.headers.origin).toBeUndefined();
    expect(atTargetProxied!.headers.host).toBe(targetUrl.host);
  });

  it("T19: the answer carries CORS for the page's origin, its own replaced, every header exposed", async () => {
    const proxied = await fetch(proxy.url, {
      method: 'POST',
      headers: { ...requestHeaders, origin: PAGE },
      body: REQUEST_BODY,
    });
    await proxied.arrayBuffer();
    expect(proxied.headers.get('access-control-allow-origin')).toBe(PAGE);
    const exposed = proxied.headers.get('access-control-expose-headers')?.split(', ') ?? [];
    expect(exposed).toEqual(expect.arrayContaining(['mcp-protocol-version', 'x-custom-answer']));

    const foreign = await fetch(proxy.url, {
      method: 'POST',
      headers: { ...requestHeaders, origin: 'https://attacker.example' },
      body: REQUEST_BODY,
    });
    await foreign.arrayBuffer();
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('T19: the preflight is answered by the proxy: POST with the Mcp-* headers and Authorization', async () => {
    received.length = 0;
    const preflight = await fetch(proxy.url, {
      method: 'OPTIONS',
      headers: {
        origin: PAGE,
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'authorization,content-type,mcp-method,mcp-name,mcp-protocol-version,mcp-param-region',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = preflight.headers.get('access-control-allow-headers')?.split(', ') ?? [];
    expect(allowed).toEqual(
      expect.arrayContaining([
        'authorization',
        'content-type',
        'accept',
        'mcp-method',
        'mcp-name',
        'mcp-protocol-version',
        'mcp-param-region',
      ]),
    );
    expect(received).toHaveLength(0);

    const refused = await fetch(proxy.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://attacker.example', 'access-control-request-method': 'POST' },
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('--origin');
  });

  it('T18: an SSE answer streams through: the first event arrives before the target sends the last', async () => {
    const proxied = await fetch(new URL('?stream', proxy.url), {
      method: 'POST',
      headers: { ...requestHeaders, origin: PAGE },
      body: REQUEST_BODY,
    });
    expect(proxied.headers.get('content-type')).toBe('text/event-stream');
    expect(proxied.headers.get('mcp-session-id')).toBe('s-1');
    const reader = proxied.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('\n\n')) seen += decoder.decode((await reader.read()).value);
    expect(seen).toBe('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/tasks"}\n\n');
    releaseSecondEvent();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      seen += decoder.decode(chunk.value);
    expect(seen).toContain('"id":7,"result":{}');
  });

  it('bad input: a target that is down gives a 502 that says so, readable by the page', async () => {
    const idle = createServer();
    await new Promise<void>((resolve) => idle.listen(0, '127.0.0.1', resolve));
    const port = (idle.address() as AddressInfo).port;
    await new Promise<void>((resolve) => idle.close(() => resolve()));
    const down = await startCorsProxy({ target: new URL(`http://127.0.0.1:${port}/mcp`) });
    try {
      const answer = await fetch(down.url, {
        method: 'POST',
        headers: { ...requestHeaders, origin: PAGE },
        body: REQUEST_BODY,
      });
      expect(answer.status).toBe(502);
      expect(answer.headers.get('access-control-allow-origin')).toBe(PAGE);
      const body = (await answer.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32603);
      expect(body.error.message).toContain(`could not reach http://127.0.0.1:${port}/mcp`);
      expect(body.error.message).toContain('ECONNREFUSED');
    } finally {
      await down.close();
    }
  });
});

describe('npm run proxy: arguments', () => {
  it('bad input: a URL that is not http(s), no URL, a bad port or origin is refused in words', () => {
    expect(parseProxyArgs(['ftp://example.com/mcp'])).toEqual({
      error: expect.stringContaining('ftp: is not http or https'),
    });
    expect(parseProxyArgs(['example.com/mcp'])).toEqual({
      error: expect.stringContaining('is not a URL'),
    });
    expect(parseProxyArgs([])).toEqual({ error: expect.stringContaining('give the URL') });
    expect(parseProxyArgs(['http://x/mcp', '--port', '70000'])).toEqual({
      error: expect.stringContaining('--port 70000'),
    });
    expect(parseProxyArgs(['http://x/mcp', '--origin', 'https://a.example/path'])).toEqual({
      error: expect.stringContaining('has no path'),
    });
    expect(
      parseProxyArgs(['https://x/mcp', '--port', '0', '--origin', 'https://a.example']),
    ).toEqual({
      args: {
        target: new URL('https://x/mcp'),
        port: 0,
        host: '127.0.0.1',
        origins: ['https://a.example'],
      },
    });
  });

  it('bad input: the CLI prints why and exits 2 for a URL that is not http(s)', async () => {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>(
      (resolve) => {
        const child = execFile(
          'node_modules/.bin/tsx',
          ['scripts/proxy.ts', 'ftp://example.com/mcp'],
          (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
        );
      },
    );
    expect(code).toBe(2);
    expect(stderr).toContain('proxy: ftp: is not http or https');
  });
});
