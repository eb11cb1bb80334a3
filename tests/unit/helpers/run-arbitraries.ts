/**
 * Random run files for property tests and the bench: every event kind, with
 * values as JSON would give them back (no `-0`, no `undefined` in arrays),
 * so `parse(serialize(run))` can be compared with the run itself.
 */
import fc from 'fast-check';
import type { RunEvent, RunEventBody } from '../../../src/record/run-events.ts';
import { RUN_FORMAT, RUN_VERSION, type RunFile } from '../../../src/record/run-file.ts';
import type { RunSetup } from '../../../src/record/run-setup.ts';

/** A JSON value as `JSON.parse` returns it (`-0` comes back as `0`). */
const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const jsonObject = fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 4 });
const nat = fc.nat({ max: 1_000_000 });
const time = fc.integer({ min: 0, max: 4_000_000_000_000 });
const ms = fc.double({ min: 0, max: 10_000, noNaN: true }).map((x) => x + 0);
const text = fc.string({ maxLength: 20 });
const direction = fc.constantFrom('out' as const, 'in' as const);
const node = fc.integer({ min: 1, max: 5 });
const loss = fc.constantFrom('loss' as const, 'link-dropped' as const, 'rule' as const);
const status = fc.constantFrom(
  'working' as const,
  'input_required' as const,
  'completed' as const,
  'failed' as const,
  'cancelled' as const,
);
const store = fc.constantFrom('memory' as const, 'indexeddb' as const);

const rate = fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x + 0);
const conditions = fc.record({
  latencyMs: fc.integer({ min: 0, max: 1500 }),
  jitterMs: fc.integer({ min: 0, max: 500 }),
  lossRate: rate,
  duplicateRate: rate,
  reorderRate: rate,
});
const link = fc.record({ out: conditions, in: conditions });

const rule = fc.record(
  {
    id: fc.string({ minLength: 1, maxLength: 10 }),
    label: text,
    when: fc.record(
      {
        direction,
        kind: fc.constantFrom(
          'request' as const,
          'notification' as const,
          'result' as const,
          'error' as const,
        ),
        method: text,
        resultType: text,
        status: text,
      },
      { requiredKeys: ['direction'] },
    ),
    then: fc.oneof(
      fc.constant({ kind: 'drop' as const }),
      fc.record({
        kind: fc.constant('offline' as const),
        seconds: fc.integer({ min: 1, max: 600 }),
      }),
      fc.constant({ kind: 'kill' as const }),
      fc.constant({ kind: 'restart' as const }),
      fc.constant({ kind: 'lose' as const }),
    ),
  },
  { noNullPrototype: true },
);

export const setupArbitrary: fc.Arbitrary<RunSetup> = fc.record({
  seed: fc.integer({ min: 0, max: 999_999_999 }),
  link,
  rules: fc.array(rule, { maxLength: 3 }),
  store,
  cluster: fc.record({
    nodes: node,
    policy: fc.constantFrom('round-robin' as const, 'random' as const, 'sticky' as const),
    store,
  }),
  declareTasks: fc.boolean(),
  server: fc.oneof(
    fc.constant({ kind: 'built-in' as const }),
    fc.record({
      kind: fc.constant('remote' as const),
      url: fc.constantFrom('http://localhost:3000/mcp', 'https://example.test/mcp'),
    }),
  ),
});

const mark = fc.record(
  {
    packet: nat,
    link: nat,
    direction,
    sentAt: time,
    deliveredAt: time,
    delayMs: ms,
    lost: loss,
    duplicated: fc.boolean(),
    duplicate: fc.boolean(),
    reordered: fc.boolean(),
    heldMs: ms,
    rule: text,
  },
  { requiredKeys: ['packet', 'link', 'direction', 'sentAt', 'delayMs'] },
);

export const wireEntryArbitrary = fc.record(
  {
    seq: fc.integer({ min: -5000, max: 1_000_000 }),
    at: time,
    direction,
    message: json,
    reissueOf: fc.oneof(nat, text),
    reissueReason: fc.constantFrom('link' as const, 'timeout' as const),
    connection: text,
    http: fc.record({
      status: fc.integer({ min: 100, max: 599 }),
      statusText: text,
      contentType: text,
      requestHeaders: fc.dictionary(fc.string({ maxLength: 10 }), text, { maxKeys: 3 }),
      ms,
    }),
    net: mark,
    node,
  },
  { requiredKeys: ['seq', 'at', 'direction', 'message'] },
);

const step = fc
  .record(
    {
      index: nat,
      at: time,
      eventType: text,
      event: text,
      value: fc.oneof(
        text,
        fc.dictionary(text, fc.oneof(text, fc.dictionary(text, text, { maxKeys: 2 })), {
          maxKeys: 3,
        }),
      ),
      active: fc.array(text, { maxLength: 3 }),
      entered: fc.array(text, { maxLength: 3 }),
      taken: fc.array(text, { maxLength: 3 }),
      internal: fc.array(text, { maxLength: 3 }),
      serverStatus: status,
      cancelRequested: fc.boolean(),
      polls: nat,
      pollIntervalMs: ms,
      pendingInputs: nat,
      lastError: text,
      link: fc.record({ reason: text, attempt: nat }),
    },
    { requiredKeys: ['index', 'at', 'eventType', 'event', 'value', 'active', 'entered', 'taken'] },
  )
  .map((s) => ({
    internal: [],
    serverStatus: 'working' as const,
    cancelRequested: false,
    polls: 0,
    pollIntervalMs: 1000,
    pendingInputs: 0,
    ...s,
  }));

/** One event of any kind, without its `at` (the run orders them). */
const eventBody: fc.Arbitrary<RunEventBody> = fc.oneof(
  fc.record({ kind: fc.constant('dropped' as const), count: fc.integer({ min: 1, max: 1e6 }) }),
  fc.record({ kind: fc.constant('wire' as const), entry: wireEntryArbitrary }),
  fc.record({
    kind: fc.constant('wire-restored' as const),
    entries: fc.array(wireEntryArbitrary, { maxLength: 3 }),
  }),
  fc.constant({ kind: 'wire-cleared' as const }),
  fc.constant({ kind: 'reset' as const }),
  fc.record({
    kind: fc.constant('packet' as const),
    update: fc.record(
      {
        packet: nat,
        at: time,
        node,
        deliveredAt: time,
        reordered: fc.boolean(),
        lost: loss,
        rule: text,
      },
      { requiredKeys: ['packet', 'at'] },
    ),
  }),
  fc.record({
    kind: fc.constant('fault' as const),
    notice: fc.record({
      id: nat,
      afterSeq: nat,
      at: time,
      kind: fc.constantFrom(
        'drop' as const,
        'kill' as const,
        'restart' as const,
        'offline' as const,
        'online' as const,
      ),
      text,
      taskIds: fc.array(text, { maxLength: 3 }),
    }),
  }),
  fc.record({
    kind: fc.constant('fault-log' as const),
    event: fc.oneof(
      fc.record({
        seq: nat,
        at: time,
        kind: fc.constant('packet.lost' as const),
        reason: loss,
        direction,
        packet: nat,
        link: nat,
        method: text,
      }),
      fc.record({
        seq: nat,
        at: time,
        kind: fc.constant('link.dropped' as const),
        link: nat,
        reason: text,
        inFlight: nat,
      }),
      fc.record({
        seq: nat,
        at: time,
        kind: fc.constant('node.cut' as const),
        node,
        generation: nat,
      }),
      fc.record({
        seq: nat,
        at: time,
        kind: fc.constant('rule.fired' as const),
        ruleId: text,
        rule: text,
        packet: nat,
      }),
      fc.record({
        seq: nat,
        at: time,
        kind: fc.constant('conditions.changed' as const),
        conditions: link,
        seed: nat,
      }),
    ),
  }),
  fc.record({ kind: fc.constant('rules' as const), rules: fc.array(rule, { maxLength: 2 }) }),
  fc.record({
    kind: fc.constant('connection' as const),
    status: fc.record(
      {
        state: fc.constantFrom(
          'connecting' as const,
          'open' as const,
          'reconnecting' as const,
          'closed' as const,
        ),
        detail: text,
        info: fc.record(
          { attempt: nat, retryAt: time, reason: text },
          { requiredKeys: ['attempt'] },
        ),
      },
      { requiredKeys: ['state', 'info'] },
    ),
  }),
  fc.record({
    kind: fc.constant('server' as const),
    status: fc.record({ running: fc.boolean(), generation: nat }),
  }),
  fc.record({
    kind: fc.constant('server-store' as const),
    status: fc.record({ chosen: store, running: store, error: text }, { requiredKeys: ['chosen'] }),
  }),
  fc.record({ kind: fc.constant('declare-tasks' as const), on: fc.boolean() }),
  fc.record({
    kind: fc.constant('push' as const),
    status: fc.oneof(
      fc.constant({ state: 'off' as const }),
      fc.record({
        state: fc.constant('open' as const),
        id: nat,
        taskIds: fc.array(text),
        agreed: fc.array(text),
        pushes: nat,
      }),
      fc.record({ state: fc.constant('refused' as const), code: fc.integer(), message: text }),
    ),
  }),
  fc.record({
    kind: fc.constant('tool-call' as const),
    call: fc.integer({ min: 1, max: 1e6 }),
    request: fc.record(
      {
        name: text,
        arguments: jsonObject,
        tasks: fc.boolean(),
        inputResponses: jsonObject,
        requestState: text,
      },
      { requiredKeys: ['name', 'arguments', 'tasks'] },
    ),
  }),
  fc.record({
    kind: fc.constant('tool-answer' as const),
    call: fc.integer({ min: 1, max: 1e6 }),
    answer: fc.oneof(
      fc.record({ kind: fc.constant('task' as const), task: fc.record({ taskId: text, status }) }),
      fc.record({ kind: fc.constant('result' as const), result: jsonObject }),
      fc.record({
        kind: fc.constant('error' as const),
        error: fc.record(
          {
            kind: fc.constantFrom('rpc' as const, 'closed' as const),
            message: text,
            code: fc.integer(),
            data: json,
          },
          { requiredKeys: ['kind', 'message'] },
        ),
      }),
    ),
  }),
  fc.record({
    kind: fc.constant('task-followed' as const),
    taskId: text,
    tool: text,
    restored: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('task-step' as const), taskId: text, step }),
  fc.record({
    kind: fc.constant('xray' as const),
    taskId: text,
    reading: fc.oneof(
      fc.record({ kind: fc.constant('stored' as const), status, since: time }),
      fc.record({ kind: fc.constant('not-stored' as const), deleted: fc.boolean() }),
      fc.record({
        kind: fc.constant('no-xray' as const),
        reason: fc.constantFrom('server down' as const, 'server starting' as const),
      }),
    ),
  }),
) as fc.Arbitrary<RunEventBody>;

/** A whole run: events at non-decreasing times. */
export const runArbitrary: fc.Arbitrary<RunFile> = fc
  .record({
    appVersion: fc.constantFrom('0.1.0', '1.2.3-beta.1'),
    recordedAt: fc
      .integer({ min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2040-01-01T00:00:00Z') })
      .map((t) => new Date(t).toISOString()),
    setup: setupArbitrary,
    gaps: fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 30 }),
    bodies: fc.array(eventBody, { maxLength: 30 }),
  })
  .map(({ appVersion, recordedAt, setup, gaps, bodies }) => {
    let at = 0;
    const events = bodies.map((body, i) => {
      at += gaps[i] ?? 1;
      return { at, ...body } as RunEvent;
    });
    return {
      format: RUN_FORMAT,
      version: RUN_VERSION,
      app: { version: appVersion },
      recordedAt,
      setup,
      events,
    };
  });
