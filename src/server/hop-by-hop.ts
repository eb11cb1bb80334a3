/**
 * Which headers a proxy must not pass on (RFC 9110 7.6.1): those about one
 * connection, not the message. The cluster's balancer copies every other
 * header as it came, in both directions; the client grader, which re-sends
 * what it read through `fetch`, leaves out the framing headers too. Checked by name length first, so the common
 * headers (`content-type`, `mcp-*`, `authorization`) cost one comparison and
 * no lower-cased copy. `Transfer-Encoding` is not here: a streamed request
 * body keeps its framing; the answer's is dropped by the balancer itself.
 */

/** The connection-level header names, lower case. */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
]);
const HOP_BY_HOP_LENGTHS = new Set([...HOP_BY_HOP].map((name) => name.length));

/** Whether this header (any case) is about the connection rather than the message. */
export function isHopByHop(name: string): boolean {
  return HOP_BY_HOP_LENGTHS.has(name.length) && HOP_BY_HOP.has(name.toLowerCase());
}

/** Whether this header (any case) is `Content-Length`. */
export function namesContentLength(name: string): boolean {
  return name.length === 14 && name.toLowerCase() === 'content-length';
}
