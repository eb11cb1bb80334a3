/**
 * Hostile inputs for the server's JSON-RPC surface, shared by the worker
 * (port host) and Node (HTTP host) fuzz tests: random values, and valid
 * requests broken on purpose. A mutation says whether it must be refused
 * (`breaks`) and with which codes, so a test can tell a wrong answer from a
 * request the mutation left valid.
 */
import fc from 'fast-check';
import { requestMeta } from '../../../src/protocol/envelope.ts';
import { deeplyNested, nastyString, notAString, prototypeKeys } from './hostile-values.ts';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const CLIENT = { name: 'fuzz', version: '0' };

/** A request before it is broken: method and params, with a well-formed envelope. */
export interface Template {
  method: string;
  params: Record<string, unknown>;
}

/**
 * Valid requests of every method the server serves. `taskId` is the task the
 * request names; `taskId` of a caller who does not own it looks missing (T20).
 */
export function templates(taskId: string): Template[] {
  const meta = requestMeta(CLIENT, TASKS);
  return [
    { method: 'server/discover', params: { _meta: meta } },
    { method: 'tools/list', params: { _meta: meta } },
    { method: 'tools/call', params: { name: 'greet', arguments: { name: 'fuzz' }, _meta: meta } },
    {
      method: 'tools/call',
      params: { name: 'confirm_delete', arguments: { filename: 'fuzz.txt' }, _meta: meta },
    },
    { method: 'tasks/get', params: { taskId, _meta: meta } },
    {
      method: 'tasks/update',
      params: {
        taskId,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        _meta: meta,
      },
    },
    { method: 'tasks/cancel', params: { taskId, _meta: meta } },
  ];
}

/** What a broken request must get back: any of these codes. */
export type Refusal = readonly number[];

/** One change to a request: what it does, and the codes it must be refused with when it `breaks` it. */
export interface Mutation {
  label: string;
  apply(message: Record<string, unknown>): void;
  /** When set, the mutated request is invalid and must be refused with one of these codes. */
  refusal?: Refusal;
}

const INVALID_REQUEST = [-32600];
const INVALID_PARAMS = [-32602];

const params = (message: Record<string, unknown>): Record<string, unknown> =>
  message['params'] as Record<string, unknown>;
const meta = (message: Record<string, unknown>): Record<string, unknown> =>
  params(message)['_meta'] as Record<string, unknown>;

/** Mutations that break any request, with the codes that may refuse each. */
function breakingMutations(): fc.Arbitrary<Mutation>[] {
  return [
    fc
      .oneof(fc.constant(undefined), fc.constant('1.0'), fc.constant(2), notAString)
      .map((jsonrpc) => ({
        label: `jsonrpc = ${String(JSON.stringify(jsonrpc))}`,
        apply: (m: Record<string, unknown>) =>
          jsonrpc === undefined ? delete m['jsonrpc'] : (m['jsonrpc'] = jsonrpc),
        refusal: INVALID_REQUEST,
      })),
    fc
      .oneof(
        fc.double({ noInteger: true }),
        fc.boolean(),
        fc.array(fc.integer(), { maxLength: 2 }),
        fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
      )
      .map((id) => ({
        label: `id = ${String(JSON.stringify(id))}`,
        apply: (m: Record<string, unknown>) => (m['id'] = id),
        refusal: INVALID_REQUEST,
      })),
    fc
      .oneof(
        fc.string({ maxLength: 3 }),
        fc.integer(),
        fc.array(fc.integer(), { maxLength: 2 }),
        fc.constant(null),
      )
      .map((value) => ({
        label: `params = ${JSON.stringify(value)}`,
        apply: (m: Record<string, unknown>) => (m['params'] = value),
        refusal: INVALID_REQUEST,
      })),
    notAString.map((method) => ({
      label: `method = ${JSON.stringify(method)}`,
      apply: (m: Record<string, unknown>) => (m['method'] = method),
      refusal: INVALID_REQUEST,
    })),
    nastyString.map((method) => ({
      label: `method = unknown ${JSON.stringify(method)}`,
      apply: (m: Record<string, unknown>) => (m['method'] = `no/such/${method}`),
      // -32020 over HTTP when the method cannot be a header value and the header says otherwise.
      refusal: [-32601, -32020],
    })),
    fc.constant({
      label: 'no _meta envelope',
      apply: (m: Record<string, unknown>) => void delete params(m)['_meta'],
      refusal: INVALID_PARAMS,
    }),
    fc
      .oneof(
        nastyString.filter((v) => v !== '2026-07-28'),
        fc.constantFrom('2025-11-25', '2099-01-01'),
      )
      .map((version) => ({
        label: `protocolVersion = ${JSON.stringify(version)}`,
        apply: (m: Record<string, unknown>) =>
          void (meta(m)['io.modelcontextprotocol/protocolVersion'] = version),
        // A version that is not a date is a malformed envelope (-32602) to the SDK, or a header mismatch (-32020).
        refusal: [-32022, -32602, -32600, -32020],
      })),
    notAString.map((version) => ({
      label: `protocolVersion = ${JSON.stringify(version)}`,
      apply: (m: Record<string, unknown>) =>
        void (meta(m)['io.modelcontextprotocol/protocolVersion'] = version),
      refusal: [-32602, -32022, -32600, -32020],
    })),
  ];
}

/**
 * An unknown tool or task is -32602. A name with a lone surrogate is not
 * Unicode, so no UTF-8 (and no Mcp-Name header) can carry it: the header
 * and the body then disagree, -32020.
 */
function unknownNameRefusal(name: string): Refusal {
  return LONE_SURROGATE.test(name) ? [-32602, -32020] : [-32602];
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Mutations that break one method's params. */
function paramMutations(method: string): fc.Arbitrary<Mutation>[] {
  if (method.startsWith('tasks/')) {
    return [
      fc.oneof(notAString, fc.constant('')).map((taskId) => ({
        label: `taskId = ${JSON.stringify(taskId)}`,
        apply: (m: Record<string, unknown>) => void (params(m)['taskId'] = taskId),
        refusal: [-32602, -32020],
      })),
      fc.constant({
        label: 'no taskId',
        apply: (m: Record<string, unknown>) => void delete params(m)['taskId'],
        refusal: [-32602],
      }),
      fc.oneof(nastyString, fc.string({ minLength: 10_000, maxLength: 10_000 })).map((taskId) => ({
        label: `taskId = unknown ${JSON.stringify(taskId).slice(0, 40)}`,
        apply: (m: Record<string, unknown>) => void (params(m)['taskId'] = `${taskId}-not-a-task`),
        refusal: unknownNameRefusal(taskId),
      })),
    ];
  }
  if (method === 'tools/call') {
    return [
      notAString.map((name) => ({
        label: `name = ${JSON.stringify(name)}`,
        apply: (m: Record<string, unknown>) => void (params(m)['name'] = name),
        refusal: [-32602],
      })),
      nastyString.map((name) => ({
        label: `name = unknown ${JSON.stringify(name)}`,
        apply: (m: Record<string, unknown>) => void (params(m)['name'] = `no_such_tool${name}`),
        refusal: unknownNameRefusal(name),
      })),
      fc
        .oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.array(fc.integer(), { maxLength: 2 }))
        .map((args) => ({
          label: `arguments = ${JSON.stringify(args)}`,
          apply: (m: Record<string, unknown>) => void (params(m)['arguments'] = args),
          refusal: [-32602],
        })),
    ];
  }
  return [];
}

/** Changes a valid request may carry and stay valid: the server must answer it, and obey nothing odd. */
function neutralMutations(): fc.Arbitrary<Mutation>[] {
  return [
    fc.constant({
      label: '__proto__ and constructor keys in params',
      apply: (m: Record<string, unknown>) =>
        void Object.assign(params(m), { extra: prototypeKeys() }),
    }),
    fc.constant({
      label: '__proto__ and constructor as own keys of params and _meta',
      apply: (m: Record<string, unknown>) => {
        for (const target of [params(m), meta(m)])
          for (const [key, value] of Object.entries(prototypeKeys()))
            Object.defineProperty(target, key, {
              value,
              enumerable: true,
              configurable: true,
              writable: true,
            });
      },
    }),
    fc.constantFrom<'array' | 'object'>('array', 'object').map((kind) => ({
      label: `an unknown param nested 1000 levels deep (${kind})`,
      apply: (m: Record<string, unknown>) => void (params(m)['deep'] = deeplyNested(1000, kind)),
    })),
    fc.integer({ min: 1, max: 64 }).map((kib) => ({
      label: `an unknown param holding a ${kib} KiB string`,
      apply: (m: Record<string, unknown>) => void (params(m)['huge'] = 'x'.repeat(kib * 1024)),
    })),
    nastyString.map((value) => ({
      label: `an unknown param = ${JSON.stringify(value)}`,
      apply: (m: Record<string, unknown>) => void (params(m)['odd'] = value),
    })),
  ];
}

/** A broken or odd request, as a plain object, and the codes it must be refused with (none: it may be answered). */
export interface MutatedRequest {
  message: Record<string, unknown>;
  labels: string[];
  refusal?: Refusal;
}

/** The id a mutated request carries unless a mutation changed it; prepareCase swaps in a unique one. */
const TEMPLATE_ID = 1;

/**
 * A mutated request about one of `taskIds`, a hostile string or a plausible unknown id, for
 * comparing two paths' replies: never a valid tools/call, which may make a task (a new id on
 * each path), so there would be no one reply to compare.
 */
export function comparableRequest(taskIds: readonly string[]): fc.Arbitrary<MutatedRequest> {
  return fc
    .oneof(fc.constantFrom(...taskIds), nastyString, fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/))
    .chain((taskId) => mutatedRequest(taskId))
    .filter((r) => r.refusal !== undefined || r.message['method'] !== 'tools/call');
}

/** A valid request with one breaking change and up to two neutral ones, or only neutral ones. */
export function mutatedRequest(taskId: string): fc.Arbitrary<MutatedRequest> {
  return fc.constantFrom(...templates(taskId)).chain((template) => {
    const breaking = fc.oneof(...breakingMutations(), ...paramMutations(template.method));
    const neutral = fc.array(fc.oneof(...neutralMutations()), { maxLength: 2 });
    return fc.tuple(fc.option(breaking, { freq: 4 }), neutral).map(([broken, extras]) => {
      const message: Record<string, unknown> = {
        jsonrpc: '2.0',
        id: TEMPLATE_ID,
        method: template.method,
        params: structuredClone(template.params),
      };
      // Neutral changes first: they need params as an object, which a breaking one may replace.
      for (const extra of extras) extra.apply(message);
      if (broken) broken.apply(message);
      const refusal = broken?.refusal;
      return {
        message,
        labels: [...extras, ...(broken ? [broken] : [])].map((m) => m.label),
        ...(refusal ? { refusal } : {}),
      };
    });
  });
}

/**
 * Makes a mutated request safe to send in a run of many: a unique id (so a
 * late answer to an earlier case could never pass for this one's), and, for
 * a valid request by the task's owner, a made-up taskId (a valid request may
 * change the task it names: only broken ones may name the victim).
 */
export function prepareCase(
  request: MutatedRequest,
  identity: string,
  owner: string,
  freshId: () => number,
): Record<string, unknown> {
  const { message, refusal } = request;
  if (message['id'] === TEMPLATE_ID) message['id'] = freshId();
  const params = message['params'];
  if (
    identity === owner &&
    !refusal &&
    typeof params === 'object' &&
    params !== null &&
    'taskId' in params
  ) {
    (params as Record<string, unknown>)['taskId'] = 'made-up-task-id';
  }
  return message;
}

/** Any value at all, including what structured clone carries and JSON cannot (BigInt, Map, Date, cycles). */
export const randomValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withNullPrototype: true,
    withSparseArray: true,
    withBoxedValues: false,
    maxDepth: 4,
  }),
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(
    fc.constantFrom(
      'jsonrpc',
      'id',
      'method',
      'params',
      'result',
      'error',
      '__proto__',
      'constructor',
    ),
    fc.jsonValue({ maxDepth: 2 }),
    { maxKeys: 5 },
  ),
);

/**
 * Whether a value is a JSON-RPC notification or response, which gets no
 * answer. Written here, apart from the server's own parser, so the tests do
 * not take the server's word for it.
 */
export function expectsNoAnswer(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  if (v['jsonrpc'] !== '2.0') return false;
  const isParams = (p: unknown): boolean =>
    p === undefined || (typeof p === 'object' && p !== null && !Array.isArray(p));
  if (typeof v['method'] === 'string' && !('id' in v)) return isParams(v['params']);
  if ('method' in v) return false;
  const idOk = (id: unknown): boolean =>
    typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
  if ('error' in v) return (idOk(v['id']) || v['id'] === null) && isRpcError(v['error']);
  return (
    idOk(v['id']) &&
    typeof v['result'] === 'object' &&
    v['result'] !== null &&
    !Array.isArray(v['result'])
  );
}

function isRpcError(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const { code, message } = e as Record<string, unknown>;
  return typeof code === 'number' && Number.isInteger(code) && typeof message === 'string';
}

/** Whether `reply` is a JSON-RPC error response: `{jsonrpc: "2.0", id, error: {code: integer, message: string}}`. */
export function isErrorResponse(
  reply: unknown,
): reply is { id: unknown; error: { code: number; message: string } } {
  return (
    typeof reply === 'object' &&
    reply !== null &&
    (reply as Record<string, unknown>)['jsonrpc'] === '2.0' &&
    isRpcError((reply as Record<string, unknown>)['error'])
  );
}
