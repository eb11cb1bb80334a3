/**
 * Serves a playground server over Streamable HTTP on `node:http`, at `/mcp`.
 * Every request goes to the SDK's web-standard entry (`server.http.fetch`),
 * which owns the validation ladder (content type, JSON, envelope, -32022,
 * -32020 header checks). Three things happen here first: the body size limit
 * (1 MiB, enforced while reading), the body's UTF-8 (checked while reading:
 * JSON text is UTF-8, and a decoder that quietly replaced bad bytes would
 * hand the tools strings the client never sent) and identity (T20, from the
 * bearer token). A JSON body is then read whole and handed to the SDK
 * parsed (its `parsedBody` option): the SDK would read it next anyway, and
 * this spares it a clone of the request and a second pass over the stream;
 * it still runs every check of its ladder on the parsed value.
 * The one exception is a `subscriptions/listen` for `taskIds` (T18, C9): the
 * SDK's listen router drops task filters, so, as in the worker host, those
 * go to `server.subscriptions` and are streamed as SSE from here.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
// Node's own, so its type is known without the DOM library (the global is the same class).
import { TextDecoder } from 'node:util';
import {
  classifyInboundRequest,
  isJsonContentType,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import { ErrorCode, Method, PROTOCOL_VERSION } from '../protocol/constants.ts';
import {
  errorResponse,
  parseMessage,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from '../protocol/jsonrpc.ts';
import type { RpcError } from '../protocol/task.ts';
import { createPlaygroundServer, type PlaygroundServer } from './playground-server.ts';
import { isTaskListen } from './task-subscriptions.ts';

export const MCP_PATH = '/mcp';
/** Largest request body accepted; larger ones get 413 before the rest is read. */
export const MAX_BODY_BYTES = 1024 * 1024;
const KEEP_ALIVE_MS = 15_000;

export interface NodeHostOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The server to serve; by default a new one, which `close()` then also closes. */
  server?: PlaygroundServer;
}

export interface NodeHost {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3939/mcp`. */
  url: string;
  /** Stops accepting, ends open streams and, if the host created it, closes the server. */
  close(): Promise<void>;
}

/** Starts serving; resolves once the port is bound. */
export async function startNodeHost(options: NodeHostOptions): Promise<NodeHost> {
  const server = options.server ?? createPlaygroundServer();
  const streams = new Set<() => void>();
  const http = createServer((req, res) => {
    serve(server, req, res, streams).catch((error: unknown) => {
      console.error('[node-host] unexpected failure while serving a request', error);
      if (!res.headersSent)
        sendJson(
          res,
          500,
          errorResponse(null, { code: ErrorCode.InternalError, message: 'Internal error' }),
        );
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      // Once listening, a socket-level error (e.g. EMFILE on accept) is reported, not fatal.
      http.on('error', (error) => console.error('[node-host] server error', error));
      resolve();
    });
  });
  const { address, port } = http.address() as AddressInfo;
  const hostPart = address.includes(':') ? `[${address}]` : address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostPart}:${port}${MCP_PATH}`,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        for (const end of [...streams]) end();
        if (!options.server) await server.close();
        http.closeAllConnections();
        await stopped;
      })()),
  };
}

async function serve(
  server: PlaygroundServer,
  req: IncomingMessage,
  res: ServerResponse,
  streams: Set<() => void>,
): Promise<void> {
  const [path = '', query = ''] = (req.url ?? '').split(/\?(.*)/s);
  if (path !== MCP_PATH)
    return sendJson(
      res,
      404,
      rpcError(ErrorCode.InvalidRequest, `Not found: MCP is served at ${MCP_PATH}`),
    );
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    return sendJson(
      res,
      405,
      rpcError(
        ErrorCode.InvalidRequest,
        'Method not allowed: this stateless server accepts POST only',
      ),
    );
  }
  const identity = bearerToken(req.headers.authorization);
  if (identity === null) {
    res.setHeader('www-authenticate', 'Bearer');
    return sendJson(
      res,
      401,
      rpcError(
        ErrorCode.InvalidRequest,
        'Unauthorized: the Authorization header must be "Bearer <token>"',
      ),
    );
  }
  // A body left unread (answered early, or over the limit) would stall the connection: drop it.
  res.on('finish', () => {
    if (!req.complete) req.socket.destroySoon();
  });
  const declaredLength = Number(req.headers['content-length']);
  if (declaredLength > MAX_BODY_BYTES) return tooLarge(res);

  const body = checkedBody(req, MAX_BODY_BYTES);
  const aborted = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  const url = `http://mcp.local${MCP_PATH}${query ? `?${query}` : ''}`;
  const headers = webHeaders(req);
  let request = new Request(url, {
    method: 'POST',
    headers,
    body: body.stream,
    signal: aborted.signal,
    duplex: 'half',
  } as RequestInit);
  let parsedBody: unknown;

  // A JSON body is read whole here, where the SDK's entry would read it next (after its 415 check),
  // and handed over parsed: the SDK then skips cloning the request and reading it again.
  if (isJsonContentType(req.headers['content-type'])) {
    const text = await request.text().catch(() => undefined);
    if (text === undefined)
      return body.refusal
        ? refuse(res, body.refusal)
        : sendJson(
            res,
            400,
            rpcError(ErrorCode.ParseError, 'Parse error: the request body could not be read'),
          );
    parsedBody = parsedJson(text);
    // Only a listen is looked into here, to see whether it asks for taskIds (routed on Mcp-Method, T19).
    const listen =
      req.headers['mcp-method'] === Method.subscriptionsListen
        ? asTaskListen(parsedBody)
        : undefined;
    if (listen) return serveTaskListen(server, req, res, listen, identity, streams);
    // Text that is not JSON still goes to the SDK as text, so the SDK answers it (-32700).
    request = new Request(url, {
      method: 'POST',
      headers,
      ...(parsedBody === undefined ? { body: text } : {}),
      signal: aborted.signal,
    });
  }

  const options = {
    ...(identity === undefined ? {} : { authInfo: authInfoFor(identity) }),
    ...(parsedBody === undefined ? {} : { parsedBody }),
  };
  let response: Response;
  try {
    response = await server.http.fetch(request, options);
  } catch (error) {
    if (body.refusal) return refuse(res, body.refusal);
    throw error;
  }
  if (body.refusal) {
    await response.body?.cancel().catch(() => {});
    return refuse(res, body.refusal);
  }
  await sendWeb(response, res);
}

/** The AuthInfo the SDK passes to the server factory: the token is the identity (T20). */
function authInfoFor(token: string): AuthInfo {
  return { token, clientId: token, scopes: [] };
}

/** `undefined` without an Authorization header (anonymous), `null` when it is not a bearer token. */
export function bearerToken(header: string | undefined): string | undefined | null {
  if (header === undefined) return undefined;
  const match = /^Bearer +([\x21-\x7e]+) *$/i.exec(header);
  return match?.[1] ?? null;
}

/** Why a body was refused while it was read. */
type BodyRefusal = 'too-large' | 'not-utf8';

/**
 * The node request body as a web stream that errors once more than `max`
 * bytes have arrived, or at the first byte that is not UTF-8, and stops
 * reading from the socket then: Content-Length may be absent (chunked) or
 * wrong, so the count is what is trusted.
 */
function checkedBody(
  req: IncomingMessage,
  max: number,
): { stream: ReadableStream<Uint8Array>; readonly refusal: BodyRefusal | undefined } {
  let received = 0;
  let finished = false;
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const state = {
    refusal: undefined as BodyRefusal | undefined,
    stream: undefined as unknown as ReadableStream<Uint8Array>,
  };
  state.stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const refuse = (refusal: BodyRefusal): void => {
        finished = true;
        state.refusal = refusal;
        req.pause();
        controller.error(
          new Error(
            refusal === 'too-large'
              ? `request body over ${max} bytes`
              : 'request body is not UTF-8',
          ),
        );
      };
      req.on('data', (chunk: Buffer) => {
        if (finished) return;
        received += chunk.length;
        if (received > max) return refuse('too-large');
        const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
        if (!isUtf8(utf8, bytes)) return refuse('not-utf8');
        controller.enqueue(bytes);
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      });
      req.on('end', () => {
        if (finished) return;
        // A multi-byte sequence cut off at the very end is not UTF-8 either.
        if (!isUtf8(utf8)) return refuse('not-utf8');
        finished = true;
        controller.close();
      });
      req.on('error', (error) => {
        if (finished) return;
        finished = true;
        controller.error(error);
      });
    },
    pull() {
      if (!finished) req.resume();
    },
    cancel() {
      finished = true;
    },
  });
  return state;
}

/** Feeds the next chunk (none: the end) to a fatal streaming decoder; false at the first invalid sequence. */
function isUtf8(decoder: TextDecoder, chunk?: Uint8Array): boolean {
  try {
    if (chunk) decoder.decode(chunk, { stream: true });
    else decoder.decode();
    return true;
  } catch {
    return false;
  }
}

function refuse(res: ServerResponse, refusal: BodyRefusal): void {
  if (refusal === 'too-large') return tooLarge(res);
  // JSON text is UTF-8 (RFC 8259, section 8.1): bytes that are not cannot be JSON.
  res.setHeader('connection', 'close');
  sendJson(
    res,
    400,
    rpcError(ErrorCode.ParseError, 'Parse error: the request body is not valid UTF-8'),
  );
}

function tooLarge(res: ServerResponse): void {
  // The rest of the body is never read: the connection closes after this answer.
  res.setHeader('connection', 'close');
  sendJson(
    res,
    413,
    rpcError(
      ErrorCode.InvalidRequest,
      `Request body too large: the limit is ${MAX_BODY_BYTES} bytes`,
    ),
  );
}

function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/** Copies a web Response to the node response: a JSON answer whole, a streaming (SSE) body chunk by chunk. */
async function sendWeb(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) {
    res.end();
    return;
  }
  if (isJsonContentType(response.headers.get('content-type'))) {
    // A JSON answer is complete once the SDK returns it: sent in one write with its length,
    // rather than headers, chunk and end apart, each its own trip down the socket's write path.
    const bytes = new Uint8Array(await response.arrayBuffer());
    res.setHeader('content-length', bytes.byteLength);
    res.end(bytes);
    return;
  }
  const reader = response.body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => {});
  res.on('close', cancel);
  try {
    res.flushHeaders();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value))
        await new Promise((resolve) => (res.once('drain', resolve), res.once('close', resolve)));
      if (res.destroyed) return;
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    res.off('close', cancel);
  }
}

/** The body as the SDK's entry parses it; undefined when it is empty or not JSON (the SDK answers -32700). */
function parsedJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function asTaskListen(body: unknown): JsonRpcRequest | undefined {
  const parsed = parseMessage(body);
  return parsed.kind === 'request' && isTaskListen(parsed.message) ? parsed.message : undefined;
}

/**
 * A task listen (T18, C9). The request first passes the same ladder the SDK
 * entry runs (its exported classifier, the -32022 version check, the
 * MCP-Protocol-Version header), then the stream opens: the acknowledgement,
 * then `notifications/tasks`, each as an SSE `data:` frame, until the client
 * disconnects or the host closes.
 */
async function serveTaskListen(
  server: PlaygroundServer,
  req: IncomingMessage,
  res: ServerResponse,
  request: JsonRpcRequest,
  identity: string | undefined,
  streams: Set<() => void>,
): Promise<void> {
  const refused = ladderRejection(req, request);
  if (refused) return sendJson(res, refused.status, errorResponse(request.id, refused.error));

  const early: JsonRpcMessage[] = [];
  let write: (message: JsonRpcMessage) => void = (message) => early.push(message);
  const subscription = await server.subscriptions.open(request, identity, (message) =>
    write(message),
  );
  if (!subscription) {
    const reply =
      early[0] ??
      errorResponse(request.id, { code: ErrorCode.InternalError, message: 'Subscription refused' });
    const code = 'error' in reply ? reply.error.code : 0;
    return sendJson(res, code === ErrorCode.MissingRequiredClientCapability ? 400 : 200, reply);
  }
  if (res.destroyed) return subscription.close();

  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  // A push may still be on its way after the stream ended; writing after end would throw.
  const frame = (text: string): void => {
    if (!res.writableEnded && !res.destroyed) res.write(text);
  };
  write = (message) => frame(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  for (const message of early) write(message);
  const keepAlive = setInterval(() => frame(': keepalive\n\n'), KEEP_ALIVE_MS);
  const cleanup = (): void => {
    clearInterval(keepAlive);
    subscription.close();
    streams.delete(end);
  };
  // Closing from the server side answers the listen request itself, as the SDK's router does.
  const end = (): void => {
    cleanup();
    write({
      jsonrpc: '2.0',
      id: request.id,
      result: {
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/subscriptionId': request.id },
      },
    });
    res.end();
  };
  streams.add(end);
  res.on('close', cleanup);
}

function ladderRejection(
  req: IncomingMessage,
  request: JsonRpcRequest,
): { status: number; error: RpcError } | undefined {
  const header = (name: string): string | undefined => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header('mcp-protocol-version'),
    mcpMethodHeader: header('mcp-method'),
    mcpNameHeader: header('mcp-name'),
    body: request,
  });
  if (outcome.kind === 'reject') {
    return {
      status: outcome.httpStatus,
      error: {
        code: outcome.code,
        message: outcome.message,
        ...(outcome.data !== undefined ? { data: outcome.data } : {}),
      },
    };
  }
  const requested =
    outcome.kind === 'modern' ? outcome.classification.revision : outcome.requestedVersion;
  if (outcome.kind === 'legacy' || requested !== PROTOCOL_VERSION) {
    return {
      status: 400,
      error: {
        code: ErrorCode.UnsupportedProtocolVersion,
        message: `Unsupported protocol version: ${requested ?? 'unknown'}`,
        data: { supported: [PROTOCOL_VERSION], requested: requested ?? 'unknown' },
      },
    };
  }
  if (header('mcp-protocol-version') === undefined) {
    return {
      status: 400,
      error: {
        code: ErrorCode.HeaderMismatch,
        message:
          'Bad Request: the request headers and body disagree: the required MCP-Protocol-Version header is absent',
        data: { mismatch: { header: '(missing)', body: requested } },
      },
    };
  }
  return undefined;
}

/** An error answer to a request whose id is not known (it was never parsed). */
function rpcError(code: number, message: string): JsonRpcMessage {
  return errorResponse(null, { code, message });
}

function sendJson(res: ServerResponse, status: number, message: JsonRpcMessage): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(message));
}
