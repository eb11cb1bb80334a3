/**
 * Serves a playground server over Streamable HTTP on `node:http`, at `/mcp`.
 * Every request goes to the SDK's web-standard entry (`server.http.fetch`),
 * which owns the validation ladder (content type, JSON, envelope, -32022,
 * -32020 header checks). Three things happen here first: the body size limit
 * and the body's UTF-8 (both checked while reading, `node-request-body.ts`)
 * and identity (T20, from the bearer token). A JSON body is then read whole
 * and handed to the SDK parsed (its `parsedBody` option): the SDK would read
 * it next anyway, and this spares it a clone of the request and a second
 * pass over the stream; it still runs every check of its ladder on the
 * parsed value. Two exceptions: a `subscriptions/listen` for `taskIds`
 * (T18, C9), streamed as SSE by `node-task-listen.ts`, and a `tasks/get`
 * that passes the SDK's ladder, answered by `direct-tasks-get.ts` without a
 * per-request SDK server (any other `tasks/get` still goes to the SDK).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isJsonContentType, type AuthInfo } from '@modelcontextprotocol/server';
import { ErrorCode, Method } from '../protocol/constants.ts';
import { errorResponse } from '../protocol/jsonrpc.ts';
import { rpcError, sendJson, sendWeb, webHeaders } from './node-http-replies.ts';
import { answerCors } from './node-cors.ts';
import { answerTasksGet } from './direct-tasks-get.ts';
import {
  checkedBody,
  checkedText,
  MAX_BODY_BYTES,
  refuseBody,
  tooLarge,
} from './node-request-body.ts';
import { asTaskListen, serveTaskListen } from './node-task-listen.ts';
import { createPlaygroundServer, type PlaygroundServer } from './playground-server.ts';

export { MAX_BODY_BYTES };

/** Where the host serves MCP; every other path answers 404. */
export const MCP_PATH = '/mcp';

export interface NodeHostOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The server to serve; by default a new one, which `close()` then also closes. */
  server?: PlaygroundServer;
  /**
   * Answer a `tasks/get` that passes the SDK's ladder without its per-request
   * server (direct-tasks-get.ts); on unless false. Off, every request goes
   * through the SDK's entry: the tests compare the two.
   */
  directTasksGet?: boolean;
  /**
   * Answer CORS for pages served from this machine (node-cors.ts); on unless
   * false. Off (`npm run serve -- --no-cors`), the host is a server a browser
   * page cannot read, as many are: what `npm run proxy` is for.
   */
  cors?: boolean;
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
    const cors = options.cors !== false;
    serve(server, req, res, streams, options.directTasksGet !== false, cors).catch(
      (error: unknown) => {
        console.error('[node-host] unexpected failure while serving a request', error);
        if (!res.headersSent)
          sendJson(
            res,
            500,
            errorResponse(null, { code: ErrorCode.InternalError, message: 'Internal error' }),
          );
        else res.destroy();
      },
    );
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
  direct: boolean,
  cors: boolean,
): Promise<void> {
  if (cors && answerCors(req, res)) return; // A browser page's preflight.
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

  const aborted = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  const url = `http://mcp.local${MCP_PATH}${query ? `?${query}` : ''}`;
  const options = identity === undefined ? {} : { authInfo: authInfoFor(identity) };

  // Any other content type goes to the SDK as a stream, for its 415.
  if (!isJsonContentType(req.headers['content-type'])) {
    const body = checkedBody(req, MAX_BODY_BYTES);
    const request = new Request(url, {
      method: 'POST',
      headers: webHeaders(req),
      body: body.stream,
      signal: aborted.signal,
      duplex: 'half',
    } as RequestInit);
    const response = await server.http.fetch(request, options).catch((error: unknown) => {
      if (body.refusal) return undefined;
      throw error;
    });
    if (body.refusal) {
      await response?.body?.cancel().catch(() => {});
      return refuseBody(res, body.refusal);
    }
    return sendWeb(response!, res);
  }

  // A JSON body is read whole here, where the SDK's entry would read it next (after its 415 check),
  // and handed over parsed: the SDK then skips cloning the request and reading it again.
  const read = await checkedText(req, MAX_BODY_BYTES);
  if ('refusal' in read) return refuseBody(res, read.refusal);
  if ('unreadable' in read)
    return sendJson(
      res,
      400,
      rpcError(ErrorCode.ParseError, 'Parse error: the request body could not be read'),
    );
  const parsedBody = parsedJson(read.text);
  const mcpMethod = req.headers['mcp-method'];
  // Only a listen is looked into here, to see whether it asks for taskIds (routed on Mcp-Method, T19).
  const listen = mcpMethod === Method.subscriptionsListen ? asTaskListen(parsedBody) : undefined;
  if (listen) return serveTaskListen(server, req, res, listen, identity, streams);
  // A poll the SDK would hand to our handler is answered without building its server (direct-tasks-get.ts).
  if (direct && mcpMethod === Method.tasksGet && parsedBody !== undefined) {
    const direct = await answerTasksGet(server.service, {
      protocolVersionHeader: single(req.headers['mcp-protocol-version']),
      mcpMethodHeader: mcpMethod,
      mcpNameHeader: single(req.headers['mcp-name']),
      body: parsedBody,
      identity,
    });
    if (direct) return sendJson(res, direct.status, direct.message);
  }
  // Text that is not JSON still goes to the SDK as text, so the SDK answers it (-32700).
  const request = new Request(url, {
    method: 'POST',
    headers: webHeaders(req),
    ...(parsedBody === undefined ? { body: read.text } : {}),
    signal: aborted.signal,
  });
  const response = await server.http.fetch(
    request,
    parsedBody === undefined ? options : { ...options, parsedBody },
  );
  await sendWeb(response, res);
}

/** A header Node joined from repeats is still one string; only `set-cookie` comes as an array. */
function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
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

/** The body as the SDK's entry parses it; undefined when it is empty or not JSON (the SDK answers -32700). */
function parsedJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
