/**
 * One raw HTTP exchange with the server under check: a JSON-RPC request POSTed with `fetch`,
 * headers as given (so a check can leave `Mcp-Name` out, or lie in it), the answer read as
 * JSON, or from an SSE stream, or kept as text. Every exchange is recorded as it was, with the
 * Authorization header redacted, for the report.
 */
import { z } from 'zod';
import { clientCapabilities, httpHeadersFor, requestMeta } from '../protocol/envelope.ts';
import { RpcErrorSchema, type RpcError } from '../protocol/jsonrpc.ts';
import { redactHeaders, type CheckExchange } from './check-report.ts';

/** Who the checker says it is in `_meta` (C2). */
export const CHECKER_INFO = { name: 'mcp-tasks-check', version: '1' } as const;

/** Where the checks go, and how. */
export interface CheckTarget {
  url: string;
  /** Sent as `Authorization: Bearer <token>` on every request; never written to a report. */
  token?: string;
  /** `fetch` to use (tests, a proxy); the global one otherwise. */
  fetch?: typeof fetch;
  /** How long one exchange may take before it is given up (default 15 s). */
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 15_000;

/** What came back, read as far as it could be. */
export type Answer =
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'error'; error: RpcError }
  /** Nothing, or nothing that is a JSON-RPC answer: `why` says which. */
  | { kind: 'none'; why: string };

const ResponseSchema = z.union([
  z.object({
    jsonrpc: z.literal('2.0'),
    id: z.unknown(),
    result: z.record(z.string(), z.unknown()),
  }),
  z.object({ jsonrpc: z.literal('2.0'), id: z.unknown(), error: RpcErrorSchema }),
]);

/** How a check shapes one request: everything a correct client would do, unless told not to. */
export interface RequestShape {
  /** Declare the tasks extension in `_meta` (T1). Default true. */
  tasks?: boolean;
  /** Replace or remove (`undefined`) headers a correct client would send. */
  headers?: Record<string, string | undefined>;
}

let nextId = 1;

/** The request body a correct client would send for `method`, with the per-request envelope (C2). */
export function requestBody(
  method: string,
  params: Record<string, unknown>,
  tasks = true,
): { jsonrpc: '2.0'; id: number; method: string; params: Record<string, unknown> } {
  return {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: { ...params, _meta: requestMeta(CHECKER_INFO, clientCapabilities({ tasks })) },
  };
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}

/** The JSON messages of an SSE body: every `data:` field, joined per event. */
function sseMessages(text: string): unknown[] {
  const messages: unknown[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') continue;
    try {
      messages.push(JSON.parse(data));
    } catch {
      // An event that is not JSON is not an answer; the body is kept as text anyway.
    }
  }
  return messages;
}

function readAnswer(status: number, contentType: string, body: unknown, id: number): Answer {
  const candidates =
    typeof body === 'string' && contentType.includes('text/event-stream')
      ? sseMessages(body)
      : [body];
  for (const candidate of candidates) {
    const parsed = ResponseSchema.safeParse(candidate);
    if (!parsed.success || parsed.data.id !== id) continue;
    return 'error' in parsed.data
      ? { kind: 'error', error: parsed.data.error }
      : { kind: 'result', result: parsed.data.result };
  }
  const what =
    typeof body === 'string'
      ? `${contentType || 'no content-type'} that is not a JSON-RPC answer to id ${id}`
      : `JSON that is not a JSON-RPC answer to id ${id}`;
  return { kind: 'none', why: `HTTP ${status} with ${what}` };
}

/**
 * POSTs one JSON-RPC request and reads the answer. Never throws for what the server does:
 * a refused connection, a timeout or an abort is an `Answer` of kind `none`, recorded too.
 */
export async function exchange(
  target: CheckTarget,
  body: ReturnType<typeof requestBody>,
  shape: RequestShape = {},
  signal?: AbortSignal,
): Promise<{ answer: Answer; record: CheckExchange }> {
  const headers: Record<string, string> = { ...httpHeadersFor(body) };
  if (target.token !== undefined) headers['authorization'] = `Bearer ${target.token}`;
  for (const [name, value] of Object.entries(shape.headers ?? {})) {
    if (value === undefined) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  const request = { method: 'POST', url: target.url, headers: redactHeaders(headers), body };
  const timeoutMs = target.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const started = Date.now();
  try {
    const response = await (target.fetch ?? fetch)(target.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    let parsedBody: unknown = text;
    if (contentType.includes('json')) {
      try {
        parsedBody = JSON.parse(text);
      } catch {
        // Said JSON, was not: kept as the text it was.
      }
    }
    const record: CheckExchange = {
      request,
      response: {
        status: response.status,
        headers: redactHeaders(headersOf(response.headers)),
        body: parsedBody,
      },
      durationMs: Date.now() - started,
    };
    return { answer: readAnswer(response.status, contentType, parsedBody, body.id), record };
  } catch (error) {
    const why = timeout.aborted
      ? `no answer within ${timeoutMs} ms`
      : signal?.aborted
        ? 'the check was stopped'
        : failureWords(error);
    return {
      answer: { kind: 'none', why },
      record: { request, error: why, durationMs: Date.now() - started },
    };
  }
}

/** `fetch` failures name their cause (ECONNREFUSED, a CORS refusal) one level down. */
function failureWords(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
