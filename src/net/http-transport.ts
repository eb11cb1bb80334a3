/**
 * A link to a remote MCP server over Streamable HTTP: the official SDK's
 * `StreamableHTTPClientTransport` (one fetch POST per message, `Mcp-Method`
 * and `Mcp-Name` derived from the body as T19 asks, JSON or SSE answers,
 * the bearer token), behind this project's `Transport`. Three things are
 * added around it, through the `fetch` it is given:
 *
 * - what HTTP said about each exchange (status, content type, the request's
 *   `Mcp-*` headers) is tied to the answer (`http-facts.ts`), for the wire log;
 * - a request whose answer's headers do not come within `timeoutMs` fails;
 * - a request HTTP did answer, but not with a JSON-RPC response (a 401, an
 *   HTML page, JSON that is not JSON-RPC), fails alone (`onfailure`), in
 *   words for the page, while the link stays up. A fetch that reached no
 *   server at all (down, offline, refused by CORS) breaks the link
 *   (`onclose`), as a dropped connection does: the client reconnects and
 *   re-issues (C8).
 *
 * HTTP has no connection to break, so `close()` aborts every fetch in flight.
 */
import { StreamableHTTPClientTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { errorMessage } from '../protocol/error-message.ts';
import { PROTOCOL_VERSION } from '../protocol/constants.ts';
import type { HttpFacts } from '../protocol/http-facts.ts';
import { recordHttpFacts, servedByOf, shownRequestHeaders } from './http-facts.ts';
import { realScheduler, type Scheduler } from './scheduler.ts';
import type { RequestFailure, Transport } from './transport.ts';

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** How long a request waits for its answer's headers. */
export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;

export interface HttpTransportOptions {
  url: URL;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** The browser's fetch by default; tests give a fake one. */
  fetch?: FetchLike;
  scheduler?: Scheduler;
  timeoutMs?: number;
}

/** One request on its way: what HTTP said so far, and whether it ran out of time. */
interface Exchange {
  facts?: HttpFacts;
  timedOut: boolean;
}

export class HttpTransport implements Transport {
  onmessage?: (message: unknown) => void;
  onclose?: (reason: string) => void;
  onerror?: (error: Error) => void;
  onfailure?: (failure: RequestFailure) => void;
  readonly #sdk: StreamableHTTPClientTransport;
  readonly #fetch: FetchLike;
  readonly #scheduler: Scheduler;
  readonly #timeoutMs: number;
  readonly #url: URL;
  /** Requests not answered yet, by JSON-RPC id. */
  readonly #exchanges = new Map<string | number, Exchange>();
  #closed = false;
  #started = false;

  constructor(options: HttpTransportOptions) {
    this.#url = options.url;
    this.#fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.#scheduler = options.scheduler ?? realScheduler;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
    const token = options.token;
    this.#sdk = new StreamableHTTPClientTransport(options.url, {
      fetch: (url, init) => this.#observedFetch(url, init),
      ...(token ? { authProvider: { token: () => Promise.resolve(token) } } : {}),
    });
    // Also for a message with no envelope (an experiment): the header the server checks first.
    this.#sdk.setProtocolVersion(PROTOCOL_VERSION);
    this.#sdk.onmessage = (message) => this.#arrived(message);
    this.#sdk.onerror = () => {}; // Each send reports its own failure (#failed).
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Idempotent: the endpoint starts a link to ask `server/discover` before the client starts it again. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    await this.#sdk.start();
  }

  async send(message: unknown): Promise<void> {
    if (this.#closed) throw new Error('transport is closed');
    const id = idOf(message);
    try {
      // The SDK only writes it with JSON.stringify: a malformed message (an experiment) goes as it is.
      await this.#sdk.send(message as JSONRPCMessage);
    } catch (error) {
      this.#failed(id, error);
      return;
    }
    // A whole JSON answer has been handed on by now; one that was not this request's answer leaves it waiting.
    const left = id === undefined ? undefined : this.#exchanges.get(id);
    if (left?.facts?.contentType.startsWith('application/json')) {
      this.#exchanges.delete(id!);
      this.#fail(
        id,
        `HTTP ${left.facts.status}: the JSON-RPC answer does not carry the request's id.`,
      );
    }
  }

  close(reason = 'closed'): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#exchanges.clear();
    this.#sdk.onclose = undefined;
    void this.#sdk.close().catch(() => {});
    this.onclose?.(reason);
  }

  async #observedFetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const id = idOf(bodyOf(init.body));
    const exchange: Exchange = { timedOut: false };
    if (id !== undefined) this.#exchanges.set(id, exchange);
    const started = this.#scheduler.now();
    const timeout = new AbortController();
    const timer = this.#scheduler.setTimeout(() => {
      exchange.timedOut = true;
      timeout.abort(new Error('no answer in time'));
    }, this.#timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal;
    try {
      const response = await this.#fetch(url, { ...init, signal });
      const servedBy = servedByOf(response.headers);
      exchange.facts = {
        status: response.status,
        statusText: response.statusText,
        contentType: response.headers.get('content-type') ?? '',
        requestHeaders: shownRequestHeaders(new Headers(init.headers)),
        ms: this.#scheduler.now() - started,
        ...(servedBy !== undefined ? { servedBy } : {}),
      };
      return response;
    } finally {
      this.#scheduler.clearTimeout(timer);
    }
  }

  #arrived(message: unknown): void {
    if (this.#closed) return;
    const id = idOf(message, 'response');
    const exchange = id === undefined ? undefined : this.#exchanges.get(id);
    if (exchange?.facts) recordHttpFacts(message, exchange.facts);
    if (id !== undefined) this.#exchanges.delete(id);
    this.onmessage?.(message);
  }

  #failed(id: string | number | undefined, error: unknown): void {
    if (this.#closed) return; // Our own close aborted it.
    const exchange = id === undefined ? undefined : this.#exchanges.get(id);
    if (id !== undefined) this.#exchanges.delete(id);
    if (exchange?.timedOut) {
      const seconds = this.#timeoutMs / 1000;
      return this.#fail(id, `no answer from ${this.#url.host} within ${seconds} s`);
    }
    if (!exchange?.facts && (id !== undefined || error instanceof TypeError)) {
      // No HTTP answer at all: the server is down, the network is, or CORS hid the answer.
      this.close(`could not reach ${this.#url.host} (${errorMessage(error)})`);
      return;
    }
    if (id === undefined || !exchange?.facts) {
      this.onerror?.(error instanceof Error ? error : new Error(errorMessage(error)));
      return;
    }
    this.#fail(id, describeHttpFailure(exchange.facts, error));
  }

  #fail(id: string | number | undefined, message: string): void {
    if (id === undefined) this.onerror?.(new Error(message));
    else this.onfailure?.({ requestId: id, message });
  }
}

/** Why an answer HTTP gave is no JSON-RPC response, in words a learner can act on. */
export function describeHttpFailure(facts: HttpFacts, error: unknown): string {
  const http = `HTTP ${facts.status}${facts.statusText ? ` ${facts.statusText}` : ''}`;
  if (facts.status === 401 || facts.status === 403)
    return `${http}: the server refused the request's credentials (${facts.status === 401 ? 'no bearer token, or a wrong one' : 'this token may not do that'}). Set the bearer token under "Connect to your own server".`;
  if (facts.status < 200 || facts.status >= 300)
    return `${http}, with no JSON-RPC answer: ${errorMessage(error).slice(0, 200)}`;
  const type = facts.contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html')
    return `${http}, but the answer is an HTML page, not JSON-RPC: is this URL the server's MCP endpoint (often ending in /mcp)?`;
  if (type !== 'application/json' && type !== 'text/event-stream')
    return `${http}, but the answer is ${type ? `"${type}"` : 'of no content type'}, neither application/json nor text/event-stream.`;
  if (error instanceof SyntaxError)
    return `${http}: the answer says ${type} but is not valid JSON.`;
  return `${http}: the answer is not a JSON-RPC message.`;
}

/** The JSON-RPC id of a request (or, with `'response'`, of a response), if it has one. */
function idOf(
  message: unknown,
  kind: 'request' | 'response' = 'request',
): string | number | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const fields = message as Record<string, unknown>;
  if (kind === 'request' ? !('method' in fields) : 'method' in fields) return undefined;
  const id = fields['id'];
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** The request body the SDK wrote, read back (it is always a JSON string). */
function bodyOf(body: RequestInit['body']): unknown {
  if (typeof body !== 'string') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
