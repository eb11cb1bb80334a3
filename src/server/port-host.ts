/**
 * Serves a playground server over a MessagePort: one JSON-RPC message per
 * `postMessage`, in both directions, or (`batched`, as the page's worker
 * ports are) an array of the messages sent in one tick per `postMessage`
 * (src/protocol/port-batches.ts); each message in it is read and answered
 * exactly as it would be alone. Each request goes through the SDK's
 * per-request HTTP entry, the same one the Node host uses, so the worker
 * and Node run the identical validation ladder (envelope, version -32022,
 * method gates). The headers are derived from the body exactly as a
 * Streamable HTTP client derives them (T19). A `tasks/get` that passes the
 * SDK's own ladder is answered as the Node host answers it, without the
 * SDK's per-request server (direct-tasks-get.ts); every other request, and
 * every `tasks/get` it cannot prove the SDK would dispatch, goes to the SDK.
 */
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';
import { ErrorCode, Method, PROTOCOL_VERSION } from '../protocol/constants.ts';
import { httpHeadersFor, isPlainHeaderValue } from '../protocol/envelope.ts';
import {
  errorResponse,
  parseMessage,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from '../protocol/jsonrpc.ts';
import { messagesOf, PortBatcher } from '../protocol/port-batches.ts';
import type { RpcError } from '../protocol/task.ts';
import { answerTasksGet } from './direct-tasks-get.ts';
import type { PlaygroundServer } from './playground-server.ts';
import { isTaskListen, type Subscription } from './task-subscriptions.ts';
import { errorMessage } from '../protocol/error-message.ts';

const WORKER_URL = 'http://worker.local/mcp';

/** The smallest part of a MessagePort this host needs (Node's and the browser's both fit). */
export interface PortLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  start?(): void;
  close(): void;
}

/** How a port is served. */
export interface ServePortOptions {
  /**
   * Answer a `tasks/get` the SDK would dispatch without its per-request
   * server (direct-tasks-get.ts); on unless false. Off, every request goes
   * through the SDK's entry (the differential test's reference).
   */
  directTasksGet?: boolean;
  /**
   * The port carries batches both ways (the connect message said so): each
   * `postMessage` in is an array of messages, and what this host sends in
   * one tick leaves as one array. Off unless true.
   */
  batched?: boolean;
}

/** Serves `port` as `identity` until the port or the returned handle is closed. */
export function servePort(
  server: PlaygroundServer,
  port: PortLike,
  identity: string,
  options: ServePortOptions = {},
): { close(): void } {
  const direct = options.directTasksGet !== false;
  const subscriptions = new Map<string | number, Subscription>();
  const batcher = options.batched ? new PortBatcher((batch) => port.postMessage(batch)) : undefined;
  const send = (message: JsonRpcMessage): void =>
    batcher ? batcher.send(message) : port.postMessage(message);
  const serve = (data: unknown): void => {
    void handle(data).catch((error: unknown) => {
      // Never let one bad message stop the port: report it and keep serving.
      console.error('[server] unexpected failure while serving a message', error);
    });
  };

  port.addEventListener('message', (event) => {
    if (!batcher) serve(event.data);
    else for (const message of messagesOf(event.data)) serve(message);
  });
  port.start?.();

  async function handle(data: unknown): Promise<void> {
    const parsed = parseMessage(data);
    switch (parsed.kind) {
      case 'invalid':
        send(
          errorResponse(idOf(data), {
            code: ErrorCode.InvalidRequest,
            message: `Invalid JSON-RPC message: ${parsed.reason}`,
          }),
        );
        return;
      case 'notification':
        if (parsed.message.method === 'notifications/cancelled')
          closeSubscription(parsed.message.params?.['requestId']);
        return;
      case 'result':
      case 'error':
        return; // This server sends no requests to the client, so no response is awaited.
      case 'request':
        try {
          if (isTaskListen(parsed.message)) {
            const subscription = await server.subscriptions.open(parsed.message, identity, send);
            if (subscription) subscriptions.set(subscription.id, subscription);
            return;
          }
          send(await viaHttpEntry(server, parsed.message, identity, direct));
        } catch (error) {
          // Every request gets its answer, whatever broke: a client must never wait for nothing (C7).
          console.error('[server] unexpected failure while serving a request', error);
          send(
            errorResponse(parsed.message.id, {
              code: ErrorCode.InternalError,
              message: 'Internal error',
            }),
          );
        }
    }
  }

  function closeSubscription(requestId: unknown): void {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    subscriptions.get(requestId)?.close();
    subscriptions.delete(requestId);
  }

  return {
    close() {
      for (const subscription of subscriptions.values()) subscription.close();
      subscriptions.clear();
      batcher?.flush();
      port.close();
    },
  };
}

/**
 * Answers one request through the SDK's HTTP entry and returns the JSON-RPC
 * response; with `direct`, a `tasks/get` the SDK would hand to our handler
 * is answered by direct-tasks-get.ts instead, from the same headers and body.
 */
export async function viaHttpEntry(
  server: PlaygroundServer,
  request: JsonRpcRequest,
  identity: string,
  direct = false,
): Promise<JsonRpcMessage> {
  const http = asHttpRequest(request);
  if ('code' in http) return errorResponse(request.id, http);
  if (direct && request.method === Method.tasksGet && http.parsedBody !== undefined) {
    const answer = await answerTasksGet(server.service, {
      protocolVersionHeader: http.headers['mcp-protocol-version'],
      mcpMethodHeader: http.headers['mcp-method'],
      mcpNameHeader: http.headers['mcp-name'],
      body: http.parsedBody,
      identity,
    });
    if (answer) return { ...answer.message, id: request.id };
  }
  const authInfo = { token: identity, clientId: identity, scopes: [] };
  const response = await server.http.fetch(
    new Request(WORKER_URL, { method: 'POST', headers: http.headers, body: http.text }),
    http.parsedBody === undefined ? { authInfo } : { authInfo, parsedBody: http.parsedBody },
  );
  const body: unknown = await response.json().catch(() => undefined);
  const parsed = parseMessage(body);
  if (parsed.kind === 'result' || parsed.kind === 'error')
    return { ...parsed.message, id: request.id };
  return errorResponse(request.id, {
    code: ErrorCode.InternalError,
    message: `Server produced no JSON-RPC response (HTTP ${response.status})`,
  });
}

/** A request for the SDK's entry, with its body already parsed when that is safe (see {@link asHttpRequest}). */
interface HttpExchange {
  headers: Record<string, string>;
  /** The body, parsed; or else its text, for the SDK to read (and refuse as too large). */
  parsedBody?: unknown;
  text?: string;
}

/**
 * The request as the POST a Streamable HTTP client would send, or the error
 * for one no client could send: a postMessage carries values JSON cannot
 * (BigInt, cycles), and strings no header can (a method or version outside
 * visible ASCII). Tool names and taskIds are encoded instead (`headerSafe`).
 *
 * The body goes to the SDK already parsed (its `parsedBody` option), as
 * `JSON.parse` of the very text the POST would carry, so the SDK sees the
 * same value it would read. What that saves is the SDK's own read: in a
 * browser worker, cloning the Request and streaming its body back out was
 * the largest single cost of a round trip. A body that might exceed the
 * SDK's size limit (the default, which playground-server.ts keeps) still
 * travels as text, so the SDK itself answers 413.
 */
function asHttpRequest(request: JsonRpcRequest): HttpExchange | RpcError {
  if (!isPlainHeaderValue(request.method)) {
    return {
      code: ErrorCode.MethodNotFound,
      message: `Method not found: ${JSON.stringify(request.method)} is no MCP method`,
    };
  }
  const headers = httpHeadersFor(request);
  const version = headers['mcp-protocol-version'] ?? '';
  if (!isPlainHeaderValue(version)) {
    return {
      code: ErrorCode.UnsupportedProtocolVersion,
      message: 'Unsupported protocol version',
      data: { supported: [PROTOCOL_VERSION], requested: version },
    };
  }
  let body: string;
  try {
    body = JSON.stringify(request);
  } catch (error) {
    const why = errorMessage(error);
    return {
      code: ErrorCode.InvalidRequest,
      message: `Invalid JSON-RPC message: it cannot be written as JSON (${why})`,
    };
  }
  // A UTF-16 code unit is at most 3 UTF-8 bytes: a body this short is surely within the limit.
  if (body.length * 3 <= DEFAULT_MAX_REQUEST_BODY_SIZE) {
    return {
      headers,
      parsedBody: JSON.parse(body) as unknown,
    };
  }
  return { headers, text: body };
}

function idOf(data: unknown): string | number | null {
  if (typeof data !== 'object' || data === null || !('id' in data)) return null;
  const id = (data as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
