/**
 * `subscriptions/listen` for `taskIds` on the Node host (T18, C9), streamed
 * as SSE from here rather than by the SDK: the SDK's listen router drops task
 * filters, so, as in the worker host, these listens go to
 * `server.subscriptions`. Because they skip the SDK's entry, the checks its
 * ladder would run are run here first, with its own exported classifier.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { ErrorCode, PROTOCOL_VERSION } from '../protocol/constants.ts';
import {
  errorResponse,
  parseMessage,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from '../protocol/jsonrpc.ts';
import type { RpcError } from '../protocol/task.ts';
import { sendJson } from './node-http-replies.ts';
import type { PlaygroundServer } from './playground-server.ts';
import { isTaskListen } from './task-subscriptions.ts';

// A comment frame this often keeps an idle stream from being timed out by proxies on the way.
const KEEP_ALIVE_MS = 15_000;

/** The parsed body as a task listen, or undefined when it is anything else (the SDK serves it then). */
export function asTaskListen(body: unknown): JsonRpcRequest | undefined {
  const parsed = parseMessage(body);
  return parsed.kind === 'request' && isTaskListen(parsed.message) ? parsed.message : undefined;
}

/**
 * A task listen (T18, C9). The request first passes the same ladder the SDK
 * entry runs (its exported classifier, the -32022 version check, the
 * MCP-Protocol-Version header), then the stream opens: the acknowledgement,
 * then `notifications/tasks`, each as an SSE `data:` frame, until the client
 * disconnects or the host closes. `streams` holds each open stream's `end`,
 * which the host calls when it closes.
 */
export async function serveTaskListen(
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

/** Why the SDK's ladder would refuse this listen (HTTP status and JSON-RPC error), or undefined when it passes. */
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
