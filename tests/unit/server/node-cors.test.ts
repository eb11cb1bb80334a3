/**
 * CORS on the Node host, so the page (another origin: Vite's port) can
 * reach `npm run serve`: the preflight allows the MCP headers (T19) and the
 * bearer token, a loopback origin is echoed, any other origin gets no CORS
 * headers, and the answer itself is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { isLoopbackOrigin } from '../../../src/server/node-cors.ts';
import { startNodeHost } from '../../../src/server/node-host.ts';
import { request, served, serveNodeHost } from '../helpers/node-host-client.ts';
import { httpHeadersFor } from '../../../src/protocol/envelope.ts';

serveNodeHost();

const PAGE = 'http://127.0.0.1:5173';

describe('node host: CORS for the playground page', () => {
  it('T19: the preflight allows POST with the Mcp-* headers and Authorization, for a loopback origin', async () => {
    const preflight = await fetch(served.host.url, {
      method: 'OPTIONS',
      headers: {
        origin: PAGE,
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'authorization, content-type, mcp-method, mcp-name, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = preflight.headers.get('access-control-allow-headers') ?? '';
    for (const name of [
      'authorization',
      'content-type',
      'mcp-method',
      'mcp-name',
      'mcp-protocol-version',
    ])
      expect(allowed).toContain(name);
  });

  it('C5: a POST from the page gets its answer with the origin echoed; another origin gets no CORS headers', async () => {
    const body = request('server/discover');
    const headers = httpHeadersFor(body);
    const fromPage = await fetch(served.host.url, {
      method: 'POST',
      headers: { ...headers, origin: PAGE },
      body: JSON.stringify(body),
    });
    expect(fromPage.status).toBe(200);
    expect(fromPage.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(fromPage.headers.get('access-control-expose-headers')).toContain('www-authenticate');
    expect(await fromPage.json()).toMatchObject({ result: { supportedVersions: ['2026-07-28'] } });
    const elsewhere = await fetch(served.host.url, {
      method: 'POST',
      headers: { ...headers, origin: 'https://evil.example' },
      body: JSON.stringify(body),
    });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('C5: with cors off (npm run serve -- --no-cors) nothing answers CORS, for npm run proxy to add', async () => {
    const host = await startNodeHost({ host: '127.0.0.1', port: 0, cors: false });
    try {
      const preflight = await fetch(host.url, {
        method: 'OPTIONS',
        headers: { origin: PAGE, 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      await preflight.arrayBuffer();
      const body = request('server/discover');
      const answer = await fetch(host.url, {
        method: 'POST',
        headers: { ...httpHeadersFor(body), origin: PAGE },
        body: JSON.stringify(body),
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      expect(await answer.json()).toMatchObject({ result: { supportedVersions: ['2026-07-28'] } });
    } finally {
      await host.close();
    }
  });

  it('only pages served from this machine count as loopback origins', () => {
    expect(isLoopbackOrigin('http://localhost:4173')).toBe(true);
    expect(isLoopbackOrigin('http://[::1]:5173')).toBe(true);
    expect(isLoopbackOrigin('http://127.0.0.1.evil.example')).toBe(false);
    expect(isLoopbackOrigin('null')).toBe(false);
  });
});
