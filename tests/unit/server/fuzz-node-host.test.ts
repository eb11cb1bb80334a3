/**
 * Fuzzing the Node host over real HTTP: valid requests broken on purpose
 * (as in the worker's fuzz test), bytes that are not UTF-8, random bytes,
 * bodies over the limit, and headers that disagree with the body. After
 * every input: the answer is a JSON-RPC error with a fitting code, under
 * the HTTP status the SDK maps it to (below); the host logged no failure of
 * its own; a task created before the fuzzing is unchanged and still
 * answers `tasks/get`; nothing was added to Object.prototype.
 *
 * HTTP statuses, as the SDK's entry (and node-host.ts before it) map them:
 * - 400: -32700 parse error (bad JSON, and here bytes that are not UTF-8),
 *   -32600 invalid request, -32020 headers that disagree with the body,
 *   -32022 unsupported version, and -32602 for a malformed `_meta` envelope
 * - 413: -32600 for a body over 1 MiB
 * - 415: -32600-family error for a content type other than JSON
 * - 404: -32601 method not found
 * - 200: errors from a method that ran: -32602 (unknown tool or task), -32021
 *
 * Seeded and bounded (see helpers/fc-run.ts for FC_SEED, FC_RUNS, FC_PATH).
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { headerSafe, requestMeta } from '../../../src/protocol/envelope.ts';
import { MAX_BODY_BYTES, startNodeHost, type NodeHost } from '../../../src/server/node-host.ts';
import {
  createPlaygroundServer,
  type PlaygroundServer,
} from '../../../src/server/playground-server.ts';
import type { TaskRecord } from '../../../src/server/task-store.ts';
import { fcParameters } from '../helpers/fc-run.ts';
import { isErrorResponse, mutatedRequest, prepareCase } from '../helpers/fuzz-inputs.ts';
import { deeplyNested } from '../helpers/hostile-values.ts';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const CLIENT = { name: 'node-fuzz', version: '0' };

let server: PlaygroundServer;
let host: NodeHost;
let victim: string;
let before: Omit<TaskRecord, 'lease'>;
let nextId = 1;

interface Reply {
  status: number;
  body: unknown;
}

/** The headers a Streamable HTTP client would derive from any body, however broken (T19). */
function headersFor(message: unknown, identity: string): Record<string, string> {
  const m = (typeof message === 'object' && message !== null ? message : {}) as Record<
    string,
    unknown
  >;
  const params = (
    typeof m['params'] === 'object' && m['params'] !== null ? m['params'] : {}
  ) as Record<string, unknown>;
  const meta = (
    typeof params['_meta'] === 'object' && params['_meta'] !== null ? params['_meta'] : {}
  ) as Record<string, unknown>;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${identity}`,
  };
  const plain = (value: unknown): value is string =>
    typeof value === 'string' && /^[\x21-\x7e]+$/.test(value);
  const version = meta['io.modelcontextprotocol/protocolVersion'];
  headers['mcp-protocol-version'] = plain(version) ? version : '2026-07-28';
  if (plain(m['method'])) headers['mcp-method'] = m['method'];
  const method = typeof m['method'] === 'string' ? m['method'] : '';
  const name = method.startsWith('tasks/')
    ? params['taskId']
    : m['method'] === 'tools/call'
      ? params['name']
      : undefined;
  if (typeof name === 'string') headers['mcp-name'] = headerSafe(name);
  return headers;
}

async function post(body: BodyInit, headers: Record<string, string>): Promise<Reply> {
  const response = await fetch(host.url, { method: 'POST', headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed };
}

async function call(
  method: string,
  params: Record<string, unknown>,
  identity = 'alice',
): Promise<Reply> {
  const message = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: { ...params, _meta: requestMeta(CLIENT, TASKS) },
  };
  return post(JSON.stringify(message), headersFor(message, identity));
}

async function factsOf(taskId: string): Promise<Omit<TaskRecord, 'lease'>> {
  const record = await server.store.get(taskId);
  if (!record) throw new Error(`task ${taskId} is gone`);
  const { lease: _lease, ...facts } = record;
  return facts;
}

const errors = vi.spyOn(console, 'error');
afterEach(() => errors.mockClear());

beforeAll(async () => {
  server = createPlaygroundServer({ sweepIntervalMs: 0 });
  host = await startNodeHost({ host: '127.0.0.1', port: 0, server });
  const created = await call('tools/call', {
    name: 'confirm_delete',
    arguments: { filename: 'keep-me.txt' },
  });
  victim = String((created.body as { result: { taskId: string } }).result.taskId);
  await vi.waitFor(async () =>
    expect((await server.store.get(victim))?.status).toBe('input_required'),
  );
  before = await factsOf(victim);
  expect(before.status).toBe('input_required');
});
afterAll(async () => {
  errors.mockRestore();
  await host.close();
  await server.close();
});

async function expectNothingElseTouched(): Promise<void> {
  expect(await factsOf(victim)).toEqual(before);
  const seen = await call('tasks/get', { taskId: victim });
  expect(seen.status).toBe(200);
  expect(seen.body).toMatchObject({
    result: {
      taskId: victim,
      status: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create' } },
    },
  });
  expect(Object.prototype).not.toHaveProperty('polluted');
  expect(errors).not.toHaveBeenCalled();
}

/** The statuses an error with `code` may come under. */
function statusesFor(code: number): number[] {
  switch (code) {
    case -32700:
    case -32020:
    case -32022:
      return [400];
    case -32600:
      return [400, 413];
    case -32601:
      return [404];
    case -32602:
      return [200, 400];
    default:
      return [200];
  }
}

function expectRefused(reply: Reply, codes: readonly number[], label: string): void {
  const why = `${label} -> ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`;
  expect(isErrorResponse(reply.body), why).toBe(true);
  const code = (reply.body as { error: { code: number } }).error.code;
  expect(codes, why).toContain(code);
  expect(statusesFor(code), why).toContain(reply.status);
}

/** Invalid UTF-8: a stray continuation byte, an overlong encoding, a surrogate, a cut-off sequence, a byte never used. */
const BAD_UTF8: readonly (readonly number[])[] = [
  [0x80],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xff],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];

describe('fuzzing the Node host over HTTP', () => {
  it('C7, T20: every broken request gets a JSON-RPC error with a fitting code and status; nothing else is touched', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('alice', 'mallory'),
        mutatedRequest(victim),
        async (identity, request) => {
          const { refusal } = request;
          const message = prepareCase(request, identity, 'alice', () => nextId++);
          const reply = await post(JSON.stringify(message), headersFor(message, identity));
          const label = request.labels.join('; ');
          if (refusal) expectRefused(reply, refusal, label);
          else
            expect(
              isErrorResponse(reply.body)
                ? (reply.body as { error: { code: number } }).error.code
                : reply.status,
              label,
            ).not.toBe(-32603);
          await expectNothingElseTouched();
        },
      ),
      fcParameters(100),
    );
  });

  it('C7: a body with bytes that are not UTF-8, anywhere, gets 400 with -32700; the tools never see it', async () => {
    const template = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'greet', arguments: { name: 'MARK' }, _meta: requestMeta(CLIENT, TASKS) },
    };
    const text = JSON.stringify(template);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...BAD_UTF8),
        fc.integer({ min: 0, max: text.length }),
        fc.boolean(),
        async (bad, at, inTheName) => {
          const bytes = new TextEncoder().encode(
            inTheName ? text.slice(0, text.indexOf('MARK')) : text.slice(0, at),
          );
          const rest = new TextEncoder().encode(
            inTheName ? text.slice(text.indexOf('MARK')) : text.slice(at),
          );
          const body = new Uint8Array([...bytes, ...bad, ...rest]);
          const reply = await post(body, headersFor(template, 'mallory'));
          expectRefused(
            reply,
            [-32700],
            `${bad.map((b) => b.toString(16)).join(' ')} at ${inTheName ? 'the name' : at}`,
          );
          await expectNothingElseTouched();
        },
      ),
      fcParameters(40),
    );
  });

  it('C7: random bytes get a JSON-RPC error (-32700, or -32600 when they happen to be JSON)', async () => {
    const headers = headersFor({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'mallory');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc.string({ unit: 'binary', maxLength: 100 }).map((s) => new TextEncoder().encode(s)),
        ),
        async (bytes) => {
          const reply = await post(bytes, headers);
          expectRefused(
            reply,
            [-32700, -32600],
            `bytes ${Buffer.from(bytes).toString('hex').slice(0, 80)}`,
          );
          await expectNothingElseTouched();
        },
      ),
      fcParameters(60),
    );
  });

  it('C7, T19: headers that disagree with the body get -32020 (or 401 / 415 for what comes before JSON-RPC)', async () => {
    const message = {
      jsonrpc: '2.0',
      id: 0,
      method: 'tasks/get',
      params: { taskId: victim, _meta: requestMeta(CLIENT, TASKS) },
    };
    const changes = fc.oneof(
      fc
        .constantFrom('mcp-method', 'mcp-name', 'mcp-protocol-version')
        .map((header) => ({ header, value: undefined as string | undefined })),
      fc
        .tuple(fc.constantFrom('mcp-method', 'mcp-name'), fc.stringMatching(/^[\x21-\x7e]{1,30}$/))
        .map(([header, value]) => ({ header, value })),
      fc
        .constantFrom('=?base64?AAA?=', '=?base64?not base64?=', '2025-11-25', '1999-01-01')
        .map((value) => ({ header: 'mcp-protocol-version', value })),
      fc
        .constantFrom('=?base64?AAA?=', '=?base64?!!!!?=', `=?base64?${btoa('other-task')}?=`)
        .map((value) => ({ header: 'mcp-name', value })),
    );
    await fc.assert(
      fc.asyncProperty(changes, async ({ header, value }) => {
        const sent = { ...message, id: nextId++ };
        const headers = headersFor(sent, 'alice');
        if (value === undefined) delete headers[header];
        else headers[header] = value;
        fc.pre(headers[header] !== headersFor(sent, 'alice')[header]);
        const reply = await post(JSON.stringify(sent), headers);
        expectRefused(reply, [-32020, -32022], `${header}: ${String(value)}`);
        await expectNothingElseTouched();
      }),
      fcParameters(40),
    );
    const plain = { ...message, id: nextId++ };
    expect(
      (
        await post(JSON.stringify(plain), {
          ...headersFor(plain, 'alice'),
          authorization: 'Basic x',
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await post(JSON.stringify(plain), {
          ...headersFor(plain, 'alice'),
          'content-type': 'text/html',
        })
      ).status,
    ).toBe(415);
    await expectNothingElseTouched();
  });

  it('C7: bodies over 1 MiB (declared or chunked), and JSON nested 100,000 deep, are refused, and the host keeps serving', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/list',
      params: { pad: 'x'.repeat(MAX_BODY_BYTES), _meta: requestMeta(CLIENT, TASKS) },
    });
    const headers = headersFor(JSON.parse(big), 'mallory');
    expectRefused(await post(big, headers), [-32600], 'over the limit');
    const chunked = await fetch(host.url, {
      method: 'POST',
      headers,
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    await expectNothingElseTouched();

    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expectRefused(await post(deep, headers), [-32600, -32700], 'deep array');
    const request = {
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tasks/update',
      params: {
        taskId: victim,
        inputResponses: { confirm: 'DEEP' },
        _meta: requestMeta(CLIENT, TASKS),
      },
    };
    const nested = JSON.stringify(request).replace(
      '"DEEP"',
      JSON.stringify(deeplyNested(2000, 'object')),
    );
    // mallory's update names alice's task: refused as missing (T20), however deep.
    expectRefused(await post(nested, headersFor(request, 'mallory')), [-32602], 'deep answer');
    await expectNothingElseTouched();
  });
});
