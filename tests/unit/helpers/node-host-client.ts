/**
 * The Node host over real HTTP for tests, with plain fetch: each test file
 * that calls `serveNodeHost()` gets its own playground server and host, and
 * these helpers build requests the way a Streamable HTTP client does.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { httpHeadersFor, requestMeta } from '../../../src/protocol/envelope.ts';
import type { JsonRpcRequest } from '../../../src/protocol/jsonrpc.ts';
import { startNodeHost, type NodeHost } from '../../../src/server/node-host.ts';
import {
  createPlaygroundServer,
  type PlaygroundServer,
} from '../../../src/server/playground-server.ts';

/** The capability that declares the tasks extension. */
export const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
/** Who the requests say they come from. */
export const CLIENT = { name: 'node-host-test', version: '1.0.0' };

/** The file's server and host, set once its `beforeAll` has run. */
export const served: { server: PlaygroundServer; host: NodeHost } = {
  server: undefined as unknown as PlaygroundServer,
  host: undefined as unknown as NodeHost,
};
let nextId = 1;

/** Starts a playground server (no expiry sweep) behind the Node host for the calling test file. */
export function serveNodeHost(): void {
  beforeAll(async () => {
    served.server = createPlaygroundServer({ sweepIntervalMs: 0 });
    served.host = await startNodeHost({ host: '127.0.0.1', port: 0, server: served.server });
  });
  afterAll(async () => {
    await served.host.close();
    await served.server.close();
  });
}

export interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A 2026-07-28 request with its `_meta` envelope, declaring the tasks extension unless `tasks` is false. */
export function request(
  method: string,
  params: Record<string, unknown> = {},
  tasks = true,
): JsonRpcRequest {
  return {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: { ...params, _meta: requestMeta(CLIENT, tasks ? TASKS : {}) },
  };
}

/** POSTs raw text with the given headers and reads the JSON reply. */
export async function postRaw(body: BodyInit, headers: Record<string, string>): Promise<Reply> {
  const response = await fetch(served.host.url, {
    method: 'POST',
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** POSTs a request with the headers a Streamable HTTP client derives from it, optionally as someone. */
export function post(
  message: JsonRpcRequest,
  options: { as?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers = {
    ...httpHeadersFor(message),
    ...(options.as ? { authorization: `Bearer ${options.as}` } : {}),
    ...options.headers,
  };
  return postRaw(JSON.stringify(message), headers);
}

/** The result of a request that must succeed. */
export async function result(
  message: JsonRpcRequest,
  as?: string,
): Promise<Record<string, unknown>> {
  const reply = await post(message, as === undefined ? {} : { as });
  expect(reply.body['error']).toBeUndefined();
  return reply.body['result'] as Record<string, unknown>;
}

/** The JSON-RPC error of a reply. */
export function errorOf(reply: Reply): { code: number; message: string; data?: unknown } {
  expect(reply.body['jsonrpc']).toBe('2.0');
  return reply.body['error'] as { code: number; message: string };
}

/** The server still answers an ordinary request. */
export async function expectStillServing(): Promise<void> {
  const discovered = await result(request('server/discover'));
  expect(discovered['supportedVersions']).toEqual(['2026-07-28']);
}

/** Starts a `slow_compute` task as `as` and returns its id. */
export async function createTask(as: string | undefined, seconds = 60): Promise<string> {
  const created = await result(
    request('tools/call', { name: 'slow_compute', arguments: { seconds } }),
    as,
  );
  expect(created['resultType']).toBe('task');
  return String(created['taskId']);
}
