/**
 * Fuzzing the worker's entry (port host) over a real MessageChannel: random
 * values, and valid requests broken on purpose (wrong types, unknown
 * methods, tools and taskIds, bad envelopes, huge strings, deep nesting,
 * `__proto__` / `constructor` keys, values JSON cannot hold). After every
 * input: a request got exactly one answer, with its id; a broken one got a
 * JSON-RPC error with a code it may be refused with (C7); the server logged
 * no failure of its own; a task created before the fuzzing is unchanged and
 * still answers `tasks/get` (T20: nobody else can touch it); nothing was
 * added to Object.prototype.
 *
 * Seeded and bounded (see helpers/fc-run.ts for FC_SEED, FC_RUNS, FC_PATH).
 */
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { servePort } from '../../../src/server/port-host.ts';
import type { TaskRecord } from '../../../src/server/task-store.ts';
import { fcParameters } from '../helpers/fc-run.ts';
import {
  expectsNoAnswer,
  isErrorResponse,
  mutatedRequest,
  prepareCase,
  randomValue,
} from '../helpers/fuzz-inputs.ts';
import { createHarness, taskWaitingForInput, type Harness } from '../helpers/harness.ts';

let h: Harness;
let victim: string;
let before: Omit<TaskRecord, 'lease'>;
let nextId = 1;

/** The facts of a task that only a request could change (the lease is renewed by heartbeat). */
async function factsOf(taskId: string): Promise<Omit<TaskRecord, 'lease'>> {
  const record = await h.server.store.get(taskId);
  if (!record) throw new Error(`task ${taskId} is gone`);
  const { lease: _lease, ...facts } = record;
  return facts;
}

beforeAll(async () => {
  h = await createHarness({}, 'alice');
  victim = await taskWaitingForInput(h.client);
  before = await factsOf(victim);
});
afterAll(async () => {
  errors.mockRestore();
  await h.close();
});

const errors = vi.spyOn(console, 'error');
afterEach(() => errors.mockClear());

/** Links kept open after their case: each must end with exactly the answers it expects, however late. */
const lingering: { replies: unknown[]; expected: number; label: string; close(): void }[] = [];

/** How long after its last case a test listens for answers that should never come. */
const QUIET_MS = 100;

/**
 * Sends one value on a fresh link as `identity` and resolves with the
 * replies so far once the first has come (at once for a value that expects
 * none). The link stays open: `expectNoMoreAnswers` checks at the end of the
 * test, after one quiet spell for all cases, that none got a second answer
 * (or, expecting none, any), instead of a quiet spell after every case.
 */
async function exchange(value: unknown, identity: string, label: string): Promise<unknown[]> {
  const channel = new MessageChannel();
  const host = servePort(h.server, channel.port1, identity);
  const replies: unknown[] = [];
  const expected = expectsNoAnswer(value) ? 0 : 1;
  let heard: () => void = () => {};
  const first = new Promise<void>((resolve) => (heard = resolve));
  channel.port2.addEventListener('message', (event) => {
    replies.push(event.data);
    heard();
  });
  channel.port2.start();
  channel.port2.postMessage(value);
  lingering.push({
    replies,
    expected,
    label,
    close: () => {
      host.close();
      channel.port2.close();
    },
  });
  if (expected > 0) await vi.waitFor(() => first, { timeout: 5000 });
  return [...replies];
}

/** One quiet spell, then every link of the test must hold exactly the answers it expected. */
async function expectNoMoreAnswers(): Promise<void> {
  // Only waiting can show that nothing more comes; one spell covers every case of the test.
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  const links = lingering.splice(0);
  for (const link of links) link.close();
  const wrong = links
    .filter((link) => link.replies.length !== link.expected)
    .map((link) => `${link.label}: ${link.replies.length} answers, expected ${link.expected}`);
  expect(wrong).toEqual([]);
}

/** The invariants that hold after every input, whatever it was. */
async function expectNothingElseTouched(): Promise<void> {
  expect(await factsOf(victim)).toEqual(before);
  const seen = await h.client.request('tasks/get', { taskId: victim }, { tasks: true });
  expect(seen).toMatchObject({
    taskId: victim,
    status: 'input_required',
    inputRequests: { confirm: { method: 'elicitation/create' } },
  });
  expect(Object.prototype).not.toHaveProperty('polluted');
  expect(errors).not.toHaveBeenCalled();
}

describe('fuzzing the port host (worker entry)', () => {
  it('C7, T20: every broken request gets one JSON-RPC error with a fitting code; nothing else is touched', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('alice', 'mallory'),
        mutatedRequest(victim),
        async (identity, request) => {
          const { refusal } = request;
          const message = prepareCase(request, identity, 'alice', () => nextId++);
          const replies = await exchange(message, identity, request.labels.join('; '));
          expect(replies, request.labels.join('; ')).toHaveLength(1);
          const [reply] = replies as Record<string, unknown>[];
          const validId = typeof message['id'] === 'string' || Number.isInteger(message['id']);
          if (validId) expect(reply!['id']).toBe(message['id']);
          if (refusal) {
            expect(
              isErrorResponse(reply),
              `${request.labels.join('; ')} -> ${JSON.stringify(reply).slice(0, 300)}`,
            ).toBe(true);
            expect(
              refusal,
              `${request.labels.join('; ')} -> ${JSON.stringify(reply).slice(0, 300)}`,
            ).toContain((reply as { error: { code: number } }).error.code);
          } else {
            // Left valid: answered, never with an internal error.
            expect(
              isErrorResponse(reply) ? (reply as { error: { code: number } }).error.code : 'result',
              request.labels.join('; '),
            ).not.toBe(-32603);
          }
          await expectNothingElseTouched();
        },
      ),
      fcParameters(150),
    );
    await expectNoMoreAnswers();
  });

  it('C7: any value at all gets a JSON-RPC error (-32600), or no answer when it is a notification or a response', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('alice', 'mallory'),
        randomValue,
        async (identity, value) => {
          const replies = await exchange(value, identity, fc.stringify(value).slice(0, 200));
          if (expectsNoAnswer(value)) {
            expect(replies).toEqual([]);
          } else {
            expect(replies).toHaveLength(1);
            expect(isErrorResponse(replies[0])).toBe(true);
            expect((replies[0] as { error: { code: number } }).error.code).toBe(-32600);
          }
          await expectNothingElseTouched();
        },
      ),
      fcParameters(150),
    );
    await expectNoMoreAnswers();
  });

  it('C7: values only structured clone can carry (BigInt, cycles) and strings no header can hold get an error, not silence', async () => {
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle['self'] = cycle;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
    };
    const cases: [string, Record<string, unknown>, number][] = [
      ['a BigInt param', { method: 'tools/list', params: { n: 10n, _meta: meta } }, -32600],
      ['a cyclic param', { method: 'tools/list', params: { loop: cycle, _meta: meta } }, -32600],
      ['a method outside ASCII', { method: 'tools/💥', params: { _meta: meta } }, -32601],
      [
        'a method with CR LF',
        { method: 'tools/list\r\nX-Injected: 1', params: { _meta: meta } },
        -32601,
      ],
      [
        'a protocol version outside ASCII',
        {
          method: 'tools/list',
          params: { _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2026-07-28💥' } },
        },
        -32022,
      ],
      // Mcp-Name travels Base64-encoded (SEP-2243), so these reach the task rules.
      [
        'a taskId outside ASCII',
        { method: 'tasks/get', params: { taskId: 'tâche-💥', _meta: meta } },
        -32602,
      ],
      [
        'a taskId that looks like the encoding',
        { method: 'tasks/get', params: { taskId: '=?base64?AAA?=', _meta: meta } },
        -32602,
      ],
      [
        'a tool name outside ASCII',
        { method: 'tools/call', params: { name: 'grüßen', arguments: {}, _meta: meta } },
        -32602,
      ],
    ];
    for (const [label, body, code] of cases) {
      const id = nextId++;
      const replies = await exchange({ jsonrpc: '2.0', id, ...body }, 'mallory', label);
      expect(replies, label).toEqual([
        { jsonrpc: '2.0', id, error: expect.objectContaining({ code }) },
      ]);
      await expectNothingElseTouched();
    }
    await expectNoMoreAnswers();
  });

  it("C7: a body over the SDK's size limit gets the SDK's own refusal, as over HTTP; one under it in bytes is served", async () => {
    // The port host hands small bodies to the SDK parsed; these sit around the point where it sends text instead.
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const limit = DEFAULT_MAX_REQUEST_BODY_SIZE;
    const cases: [string, string, 'refused' | 'served'][] = [
      ['ASCII over the limit', 'x'.repeat(limit + 1), 'refused'],
      [
        '3-byte characters over the limit in bytes, not in characters',
        '€'.repeat(Math.ceil(limit / 3) + 1),
        'refused',
      ],
      [
        '2-byte characters under the limit in bytes, over a third of it in characters',
        'é'.repeat(Math.floor(limit / 2) - 1000),
        'served',
      ],
    ];
    for (const [label, pad, outcome] of cases) {
      const id = nextId++;
      const replies = await exchange(
        { jsonrpc: '2.0', id, method: 'tools/list', params: { pad, _meta: meta } },
        'mallory',
        label,
      );
      expect(replies, label).toHaveLength(1);
      if (outcome === 'served')
        expect(replies[0], label).toMatchObject({ id, result: { tools: expect.any(Array) } });
      else
        expect(replies[0], label).toEqual({
          jsonrpc: '2.0',
          id,
          error: {
            code: -32000,
            message: `Payload Too Large: Request body must not exceed ${limit} bytes`,
          },
        });
      await expectNothingElseTouched();
    }
    await expectNoMoreAnswers();
  });
});
