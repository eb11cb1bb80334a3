/**
 * A CORS proxy in front of one MCP server that sends no CORS headers, so the
 * playground page can reach it from the browser: `npm run proxy -- <url>`.
 * Forwarding is `http-proxy-3`'s (a maintained proxy library), not a loop of
 * our own, so each request and each answer is piped as it comes: the body
 * bytes, every `Mcp-*` header, the status, and a streamed (SSE) answer event
 * by event. What the proxy changes, and why:
 *
 * - it answers the browser's preflight (`OPTIONS`) itself, since the target
 *   knows nothing of CORS: POST with the headers a Streamable HTTP client
 *   sends (`Authorization`, `Content-Type`, `Accept`, every `Mcp-*` one such
 *   as `Mcp-Method`, `Mcp-Name`, `Mcp-Protocol-Version`, `Mcp-Param-*`,
 *   `Last-Event-ID`);
 * - it adds `Access-Control-Allow-Origin` for an allowed page origin to each
 *   answer (replacing any the target sent) and exposes every header of the
 *   answer, so the page's client can read its `Mcp-*` headers;
 * - it drops the browser's `Origin` on the way in: the proxy is the target's
 *   client now, and a server checking `Origin` (as MCP servers should, against
 *   DNS rebinding) would refuse the page's; `Host` is the target's;
 * - a target that cannot be reached gets a 502 whose JSON-RPC error says so
 *   in words (with CORS, so the page can read it).
 *
 * Pages served from this machine (`localhost`, `127.0.0.1`, `[::1]`, any
 * port) are allowed, and any origin given in `origins`; no other site may
 * drive the target through it from a learner's browser.
 */
import {
  Agent as HttpAgent,
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createProxyServer } from 'http-proxy-3';
import { isLoopbackOrigin } from '../../src/server/node-cors.ts';

export interface CorsProxyOptions {
  /** The MCP endpoint forwarded to, http or https. */
  target: URL;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Page origins allowed besides this machine's, e.g. `https://playground.example`. */
  origins?: readonly string[];
}

export interface CorsProxy {
  /** Where the page connects: the proxy's origin with the target's path and query. */
  url: URL;
  close(): Promise<void>;
}

/** Request headers a page may send besides the `Mcp-*` ones (any of those is allowed). */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'accept', 'last-event-id'];
/** Response headers a page may read without being exposed; the rest are listed. */
const SAFELISTED = new Set([
  'cache-control',
  'content-language',
  'content-length',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
]);

/** Which of the preflight's requested headers are let through: the MCP ones and the client's usual. */
export function allowedRequestHeaders(requested: string | undefined): string[] {
  const names = (requested ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  return [
    ...new Set([
      ...ALLOWED_HEADERS,
      'mcp-method',
      'mcp-name',
      'mcp-protocol-version',
      'mcp-session-id',
      ...names.filter((name) => name.startsWith('mcp-')),
    ]),
  ];
}

/** The JSON-RPC error a 502 carries: what failed, in words. */
function badGateway(target: URL, error: Error & { code?: string }): string {
  const why = error.code === 'ECONNREFUSED' ? 'nothing is listening there' : error.message;
  return JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32603,
      message: `Bad gateway: the proxy could not reach ${target.href} (${error.code ?? 'error'}: ${why}). Is the server running at that address?`,
    },
  });
}

export async function startCorsProxy(options: CorsProxyOptions): Promise<CorsProxy> {
  const { target } = options;
  const extraOrigins = new Set(options.origins ?? []);
  const allowed = (origin: string | undefined): origin is string =>
    origin !== undefined && (isLoopbackOrigin(origin) || extraOrigins.has(origin));
  const agent =
    target.protocol === 'https:'
      ? new HttpsAgent({ keepAlive: true })
      : new HttpAgent({ keepAlive: true });
  const proxy = createProxyServer({ target: target.origin, agent, changeOrigin: true });

  proxy.on('proxyReq', (proxyReq) => proxyReq.removeHeader('origin'));
  proxy.on('proxyRes', (proxyRes, req) => {
    const headers = proxyRes.headers;
    for (const name of Object.keys(headers))
      if (name.startsWith('access-control-')) delete headers[name];
    const origin = req.headers.origin;
    if (!allowed(origin)) return;
    headers['access-control-allow-origin'] = origin;
    const vary = headers['vary'];
    headers['vary'] = vary ? `${String(vary)}, Origin` : 'Origin';
    const exposed = Object.keys(headers).filter(
      (name) => !SAFELISTED.has(name) && !name.startsWith('access-control-'),
    );
    if (exposed.length) headers['access-control-expose-headers'] = exposed.join(', ');
  });

  const preflight = (req: IncomingMessage, res: ServerResponse, origin: string): void => {
    res.writeHead(204, {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
      'access-control-allow-headers': allowedRequestHeaders(
        req.headers['access-control-request-headers'],
      ).join(', '),
      'access-control-max-age': '600',
      vary: 'Origin',
    });
    res.end();
  };

  const http = createServer((req, res) => {
    const origin = req.headers.origin;
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      if (allowed(origin)) return preflight(req, res, origin);
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end(
        `This proxy answers CORS only for pages served from this machine${extraOrigins.size ? ` and ${[...extraOrigins].join(', ')}` : ''}; ${origin ?? 'this origin'} is not one (add it with --origin).`,
      );
    }
    proxy.web(req, res, {}, (error: Error & { code?: string }) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, {
        'content-type': 'application/json',
        ...(allowed(origin) ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {}),
      });
      res.end(badGateway(target, error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const url = new URL(
    `${target.pathname}${target.search}`,
    `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
  );
  return {
    url,
    close: async () => {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      proxy.close();
      agent.destroy();
      await closed;
    },
  };
}
