/**
 * The Node host answers a `tasks/get` that passes the SDK's ladder itself
 * (src/server/direct-tasks-get.ts), without the SDK's per-request server.
 * Proven here against the SDK's own answer: two hosts serve one server, one
 * with the direct path and one without (every request through the SDK's
 * entry), and every request, valid or broken, must get the same status,
 * content type and body from both. The checks the direct path skips (the
 * SDK's second and third pass of the JSON-RPC and envelope schemas, its
 * `Request`/`Response`) are shown to have run once: broken envelopes,
 * headers and params still get the SDK's exact refusal.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { headerSafe, httpHeadersFor, requestMeta } from '../../../src/protocol/envelope.ts';
import type { JsonRpcRequest } from '../../../src/protocol/jsonrpc.ts';
import { startNodeHost, type NodeHost } from '../../../src/server/node-host.ts';
import {
  createPlaygroundServer,
  type PlaygroundServer,
} from '../../../src/server/playground-server.ts';
import { fcParameters } from '../helpers/fc-run.ts';
import { comparableRequest, prepareCase } from '../helpers/fuzz-inputs.ts';
import { everyStoredShape } from '../helpers/stored-shapes.ts';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const CLIENT = { name: 'direct-get-test', version: '1' };

let server: PlaygroundServer;
let viaSdk: NodeHost;
let direct: NodeHost;
let nextId = 1;

interface Reply {
  status: number;
  contentType: string | null;
  body: unknown;
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<Reply> {
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Kept as text: compared as text.
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: parsed,
  };
}

/** Sends the same bytes and headers to both hosts; their answers must be equal. */
async function expectSameAnswer(body: string, headers: Record<string, string>): Promise<Reply> {
  const [sdk, ours] = await Promise.all([
    post(viaSdk.url, body, headers),
    post(direct.url, body, headers),
  ]);
  expect(ours, `${body.slice(0, 300)} ${JSON.stringify(headers)}`).toEqual(sdk);
  return ours;
}

function tasksGet(taskId: unknown, tasks = true): JsonRpcRequest {
  return {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tasks/get',
    params: { taskId, _meta: requestMeta(CLIENT, tasks ? TASKS : {}) },
  };
}

/** The headers a Streamable HTTP client sends for `message`, as `identity` (none: anonymous). */
function headersOf(message: JsonRpcRequest, identity: string | undefined): Record<string, string> {
  return {
    ...httpHeadersFor(message),
    ...(identity === undefined ? {} : { authorization: `Bearer ${identity}` }),
  };
}

/**
 * The headers a client would derive from any body, however broken (T19):
 * only values a header can carry as they are.
 */
function derivedHeaders(
  message: Record<string, unknown>,
  identity: string,
): Record<string, string> {
  const plain = (value: unknown): value is string =>
    typeof value === 'string' && /^[\x21-\x7e]+$/.test(value);
  const params = isObject(message['params']) ? message['params'] : {};
  const meta = isObject(params['_meta']) ? params['_meta'] : {};
  const version = meta['io.modelcontextprotocol/protocolVersion'];
  const method = message['method'];
  const name =
    typeof method === 'string' && method.startsWith('tasks/') ? params['taskId'] : params['name'];
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${identity}`,
    'mcp-protocol-version': plain(version) ? version : '2026-07-28',
    ...(plain(method) ? { 'mcp-method': method } : {}),
    ...(typeof name === 'string' ? { 'mcp-name': headerSafe(name) } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function storeTasks(): Promise<void> {
  for (const record of await everyStoredShape('alice')) await server.store.create(record);
}

let taskIds: string[] = [];

beforeAll(async () => {
  server = createPlaygroundServer({ sweepIntervalMs: 0, adoptIntervalMs: 0 });
  viaSdk = await startNodeHost({ host: '127.0.0.1', port: 0, server, directTasksGet: false });
  direct = await startNodeHost({ host: '127.0.0.1', port: 0, server });
  await storeTasks();
  taskIds = (await server.store.all()).map((r) => r.taskId);
});
afterAll(async () => {
  await direct.close();
  await viaSdk.close();
  await server.close();
});

describe('tasks/get without the per-request SDK server', () => {
  it('T10, T20, C4, C6: every stored shape, every caller, with and without the extension: the SDK answer, without the SDK entry', async () => {
    const sdkEntry = vi.spyOn(server.http, 'fetch');
    try {
      for (const taskId of [...taskIds, 'made-up-task-id'])
        for (const identity of ['alice', 'mallory', undefined])
          for (const tasks of [true, false]) {
            const message = tasksGet(taskId, tasks);
            const body = JSON.stringify(message);
            const headers = headersOf(message, identity);
            sdkEntry.mockClear();
            const sdk = await post(viaSdk.url, body, headers);
            expect(sdkEntry).toHaveBeenCalledTimes(1);
            sdkEntry.mockClear();
            const ours = await post(direct.url, body, headers);
            // The direct path answered it: the SDK's entry never saw the request.
            expect(sdkEntry).not.toHaveBeenCalled();
            expect(ours, `${taskId} as ${identity}, tasks ${tasks}`).toEqual(sdk);
          }
    } finally {
      sdkEntry.mockRestore();
    }
    // And the answers are the real ones, not two equal mistakes.
    const seen = await post(
      direct.url,
      JSON.stringify(tasksGet('task-input')),
      headersOf(tasksGet('task-input'), 'alice'),
    );
    expect(seen).toMatchObject({
      status: 200,
      contentType: 'application/json',
      body: {
        result: {
          taskId: 'task-input',
          status: 'input_required',
          resultType: 'complete',
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcp-tasks-playground' } },
        },
      },
    });
    const undeclared = tasksGet('task-input', false);
    expect(
      await post(direct.url, JSON.stringify(undeclared), headersOf(undeclared, 'alice')),
    ).toMatchObject({ status: 400, body: { error: { code: -32021 } } });
  });

  it('C2, C7, T19: broken envelopes, ids, params and headers get the SDK refusal, exactly', async () => {
    const message = tasksGet('task-working');
    const headers = headersOf(message, 'alice');
    const variants: [string, Record<string, string>][] = [
      [JSON.stringify({ ...message, id: 1.5 }), headers],
      [JSON.stringify({ ...message, jsonrpc: '1.0' }), headers],
      [JSON.stringify({ ...message, params: { taskId: 'task-working' } }), headers],
      [
        JSON.stringify({
          ...message,
          params: {
            taskId: 'task-working',
            _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
          },
        }),
        headers,
      ],
      [JSON.stringify(message), { ...headers, 'mcp-protocol-version': '2025-11-25' }],
      [JSON.stringify(message), { ...headers, 'mcp-method': 'tasks/cancel' }],
      [JSON.stringify(message), { ...headers, 'mcp-name': 'task-input' }],
      [JSON.stringify(message), { ...headers, 'mcp-name': '=?base64?dGFzay13b3JraW5n?=' }],
      [JSON.stringify(message), { ...headers, 'mcp-name': '=?base64?not base64?=' }],
      [
        JSON.stringify(message),
        Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'mcp-name')),
      ],
      [
        JSON.stringify(message),
        Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'mcp-protocol-version')),
      ],
      [
        JSON.stringify({ ...message, params: { ...message.params, inputResponses: { a: {} } } }),
        headers,
      ],
      [JSON.stringify({ ...message, params: { ...message.params, requestState: 'x' } }), headers],
      [JSON.stringify([message]), headers],
      [JSON.stringify({ ...message, id: undefined }), headers],
    ];
    const sdkEntry = vi.spyOn(server.http, 'fetch');
    try {
      for (const [body, variantHeaders] of variants) {
        sdkEntry.mockClear();
        await expectSameAnswer(body, variantHeaders);
        // Both hosts gave it to the SDK's entry: the direct path took none of these.
        expect(sdkEntry, body).toHaveBeenCalledTimes(2);
      }
    } finally {
      sdkEntry.mockRestore();
    }
  });

  it('C7, T20: any request, broken or odd, hostile task ids included, gets the same answer from both paths', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('alice', 'mallory'),
        comparableRequest(taskIds),
        async (identity, request) => {
          // Valid requests by the owner get a made-up id: a tasks/update or cancel would change the task.
          const message = prepareCase(request, identity, 'alice', () => nextId++);
          await expectSameAnswer(JSON.stringify(message), derivedHeaders(message, identity));
        },
      ),
      fcParameters(150),
    );
  });
});
