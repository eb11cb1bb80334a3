/**
 * What HTTP said about one exchange with a remote server: the status, the
 * answer's content type, and the MCP headers the request carried (T19), so
 * the wire log can show them beside the JSON-RPC message. Facts are kept
 * per message object in a WeakMap: a message is passed on untouched (the
 * log shows its exact JSON), and the facts go when the message goes. The
 * shape itself is the protocol's (`src/protocol/http-facts.ts`).
 */
import { MAX_SERVED_BY_CHARS, type HttpFacts } from '../protocol/http-facts.ts';

/** The answer's `x-served-by`, when it is there and short enough to be a node's name. */
export function servedByOf(headers: Headers): string | undefined {
  const value = headers.get('x-served-by')?.trim();
  return value && value.length <= MAX_SERVED_BY_CHARS ? value : undefined;
}

const factsByMessage = new WeakMap<object, HttpFacts>();

/** Ties `facts` to a message the HTTP transport is about to hand on. */
export function recordHttpFacts(message: unknown, facts: HttpFacts): void {
  if (typeof message === 'object' && message !== null) factsByMessage.set(message, facts);
}

/** What HTTP said about the exchange that brought `message`, if it came over HTTP. */
export function httpFactsOf(message: unknown): HttpFacts | undefined {
  return typeof message === 'object' && message !== null ? factsByMessage.get(message) : undefined;
}

/** The headers worth showing: every `Mcp-*` one, and whether a bearer token went (never the token). */
export function shownRequestHeaders(headers: Headers): Record<string, string> {
  const shown: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name.startsWith('mcp-')) shown[name] = value;
  });
  if (headers.has('authorization')) shown['authorization'] = 'Bearer …';
  return shown;
}

/** The HTTP line of a wire row: `HTTP 200 · 12 ms · served by node-2 · mcp-method: tasks/get · mcp-name: …`. */
export function httpSummary(facts: HttpFacts): string {
  const headers = Object.entries(facts.requestHeaders).map(([name, value]) => `${name}: ${value}`);
  const servedBy = facts.servedBy === undefined ? [] : [`served by ${facts.servedBy}`];
  return [`HTTP ${facts.status}`, `${Math.round(facts.ms)} ms`, ...servedBy, ...headers].join(
    ' · ',
  );
}
