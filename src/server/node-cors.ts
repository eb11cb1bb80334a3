/**
 * CORS for the Node host, so the playground page (served by Vite on another
 * port, another origin) can reach `npm run serve` and the cluster's balancer
 * with fetch. Only pages served from this machine (an `http://localhost`,
 * `127.0.0.1` or `[::1]` origin, any port) are let in: the host lets anyone
 * without a token act as `anonymous`, so a page from elsewhere must not
 * drive it from a learner's browser. The preflight allows the MCP headers a
 * Streamable HTTP client sends (T19) and `Authorization`; the answer exposes
 * the headers a client may read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a browser page may send: the MCP headers and the bearer token. */
const ALLOWED_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'mcp-session-id',
  'last-event-id',
].join(', ');

/** What a browser page may read of an answer beyond the safelisted headers. */
const EXPOSED_HEADERS = ['mcp-session-id', 'www-authenticate', 'x-served-by'].join(', ');

/** Whether `origin` is a page served from this machine. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const { protocol, hostname } = new URL(origin);
    return (
      (protocol === 'http:' || protocol === 'https:') &&
      (hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]')
    );
  } catch {
    return false;
  }
}

/**
 * Adds the CORS headers an allowed origin's request needs, and answers its
 * preflight (`OPTIONS`) outright: returns true when the request is answered.
 */
export function answerCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  res.setHeader('vary', 'Origin');
  if (origin === undefined || !isLoopbackOrigin(origin)) return false;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
  if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return false;
  res.writeHead(204, {
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': '600',
  });
  res.end();
  return true;
}
