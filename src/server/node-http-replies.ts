/**
 * The Node host's way of answering: a JSON-RPC message as a whole JSON
 * response, and the SDK's web `Response` copied onto a `node:http`
 * response. Kept apart from the request handling so the body reader and the
 * SSE stream answer their refusals in exactly the same shape.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/server';
import { errorResponse, type JsonRpcMessage } from '../protocol/jsonrpc.ts';

/** An error answer to a request whose id is not known (it was never parsed). */
export function rpcError(code: number, message: string): JsonRpcMessage {
  return errorResponse(null, { code, message });
}

/** Answers with one JSON-RPC message as `application/json`, with its length, in a single write. */
export function sendJson(res: ServerResponse, status: number, message: JsonRpcMessage): void {
  const bytes = Buffer.from(JSON.stringify(message));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length });
  res.end(bytes);
}

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * The node request's headers as web `Headers`, repeated ones kept, HTTP/2 pseudo-headers left
 * out, and those `leaveOut` names (a proxy's hop-by-hop headers).
 */
export function webHeaders(
  req: IncomingMessage,
  leaveOut: ReadonlySet<string> = NO_NAMES,
): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':') || leaveOut.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/** Copies a web Response to the node response: a JSON answer whole, a streaming (SSE) body chunk by chunk. */
export async function sendWeb(response: Response, res: ServerResponse): Promise<void> {
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
  await streamBody(response.body, res);
}

/**
 * Writes a streaming (SSE) body to the node response chunk by chunk as it comes, waiting while
 * the socket is full; the client going away cancels the body, and a body that fails ends the
 * response abruptly (its status and headers are already sent).
 */
export async function streamBody(
  body: ReadableStream<Uint8Array>,
  res: ServerResponse,
): Promise<void> {
  const reader = body.getReader();
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
