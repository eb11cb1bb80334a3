/**
 * Property tests of the whole system: the real server (port host, task
 * service, job runner, memory or IndexedDB store) and the real page client
 * (RpcClient, TaskFollower, TaskJournal) over the fault-injecting network,
 * on one fake clock. fast-check draws a random sequence of tool calls,
 * answers, cancels, dropped links, offline spells, server kills (a fresh
 * server on the same store), page reloads (a fresh client resuming from the
 * page's journal) and changes of latency, loss, duplication and reordering;
 * then the network heals and the run settles. Invariants:
 *
 * - T9: a terminal status never changes (every atomic store write is seen)
 * - T8: every taskId the server returns is gettable at once (a tasks/get is
 *   made beside the network the moment the handle leaves)
 * - T14, T15: no input answer is accepted or taken twice; no key is issued
 *   twice; no answered key is shown to the user again, across reloads
 * - T12: no stored taskId is lost: every task a page followed stays in the
 *   page's store, and each unfinished one is followed again after a reload
 * - T12: the client never polls a task sooner than pollIntervalMs after its
 *   previous poll (re-issues of one poll under new ids, C8, are one poll; a
 *   poll whose page reloaded before its answer came is carried on by the next page)
 * - C8: every request delivered to the server gets exactly one response; every
 *   request the page sent is answered or re-issued under a new id, unless
 *   its page was closed first
 *
 * Seeded and bounded (see helpers/fc-run.ts for FC_SEED, FC_RUNS, FC_PATH).
 */
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LinkConditions } from '../../../src/net/link-conditions.ts';
import { fcParameters } from '../helpers/fc-run.ts';
import { FAKE_TIMERS, RealStack, type StoreKind } from '../helpers/real-stack.ts';

type Command =
  | { kind: 'call'; tool: string; args: Record<string, unknown>; declare: boolean }
  | { kind: 'answer' }
  | { kind: 'cancel'; index: number }
  | { kind: 'drop' }
  | { kind: 'offline'; seconds: number }
  | { kind: 'kill'; downMs: number }
  | { kind: 'reload' }
  | { kind: 'conditions'; conditions: LinkConditions };

const direction = fc.record({
  latencyMs: fc.integer({ min: 0, max: 400 }),
  jitterMs: fc.integer({ min: 0, max: 150 }),
  lossRate: fc.constantFrom(0, 0, 0.05, 0.15),
  duplicateRate: fc.constantFrom(0, 0.1, 0.25, 0.5),
  reorderRate: fc.constantFrom(0, 0.1, 0.25),
});
const conditions: fc.Arbitrary<LinkConditions> = fc.record({ out: direction, in: direction });

const call: fc.Arbitrary<Command> = fc
  .oneof(
    fc.record({
      tool: fc.constant('slow_compute'),
      args: fc.record({ seconds: fc.integer({ min: 0, max: 4 }) }),
      declare: fc.constant(true),
    }),
    // Without the extension it runs inline (T3): only an instant one, so no request waits on the clock.
    fc.record({
      tool: fc.constant('slow_compute'),
      args: fc.constant({ seconds: 0 }),
      declare: fc.constant(false),
    }),
    fc.record({
      tool: fc.constant('confirm_delete'),
      args: fc.constant({ filename: 'a.txt' }),
      declare: fc.boolean(),
    }),
    fc.record({
      tool: fc.constant('multi_input'),
      args: fc.constant({}),
      declare: fc.constant(true),
    }),
    // Works on for seconds after its answer: a repeated answer then finds it still running.
    fc.record({
      tool: fc.constant('deploy_service'),
      args: fc.constant({ service: 'api' }),
      declare: fc.constant(true),
    }),
    fc.record({
      tool: fc.constantFrom('failing_job', 'protocol_error_job', 'flash_sale_quote'),
      args: fc.constant({}),
      declare: fc.constant(true),
    }),
    fc.record({
      tool: fc.constant('stubborn_migration'),
      args: fc.constant({ rows: 1000 }),
      declare: fc.constant(true),
    }),
    fc.record({
      tool: fc.constant('greet'),
      args: fc.constant({ name: 'Ada' }),
      declare: fc.boolean(),
    }),
  )
  .map((c) => ({ kind: 'call' as const, ...c }));

const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: call, weight: 5 },
  { arbitrary: fc.constant({ kind: 'answer' as const }), weight: 3 },
  { arbitrary: fc.nat(10).map((index) => ({ kind: 'cancel' as const, index })), weight: 1 },
  { arbitrary: fc.constant({ kind: 'drop' as const }), weight: 1 },
  {
    arbitrary: fc
      .double({ min: 0.2, max: 3, noNaN: true })
      .map((seconds) => ({ kind: 'offline' as const, seconds })),
    weight: 1,
  },
  {
    arbitrary: fc
      .integer({ min: 0, max: 3000 })
      .map((downMs) => ({ kind: 'kill' as const, downMs })),
    weight: 1,
  },
  { arbitrary: fc.constant({ kind: 'reload' as const }), weight: 1 },
  { arbitrary: conditions.map((c) => ({ kind: 'conditions' as const, conditions: c })), weight: 1 },
);

const scenario = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  conditions,
  // The user answers what is on screen before a step, or not: answers then cross a faulty network.
  steps: fc.array(
    fc.record({ answerFirst: fc.boolean(), command, gapMs: fc.integer({ min: 0, max: 2500 }) }),
    { minLength: 3, maxLength: 16 },
  ),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/**
 * Runs first, before the random ones: an answer the network delivers twice,
 * the copy arriving while the job it answered is still at work (T15: it must
 * be ignored). Random runs find this only now and then.
 */
const REPEATED_ANSWER: Scenario = {
  seed: 1,
  conditions: {
    out: { latencyMs: 200, jitterMs: 150, lossRate: 0, duplicateRate: 0.5, reorderRate: 0 },
    in: { latencyMs: 50, jitterMs: 0, lossRate: 0, duplicateRate: 0, reorderRate: 0 },
  },
  steps: [
    {
      answerFirst: false,
      command: { kind: 'call', tool: 'deploy_service', args: { service: 'api' }, declare: true },
      gapMs: 1500,
    },
    {
      answerFirst: false,
      command: { kind: 'call', tool: 'deploy_service', args: { service: 'web' }, declare: true },
      gapMs: 1500,
    },
    { answerFirst: true, command: { kind: 'answer' }, gapMs: 2500 },
  ],
};

/** Server settings that make expiry and purging happen inside a run (T13). */
const SERVER = {
  defaultTtlMs: 30_000,
  purgeAfterMs: 10_000,
  runner: { leaseMs: 3000, heartbeatMs: 1000 },
};

let stack: RealStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
  vi.useRealTimers();
});

async function run(
  kind: StoreKind,
  { seed, conditions: start, steps }: Scenario,
): Promise<RealStack> {
  vi.useFakeTimers(FAKE_TIMERS);
  vi.setSystemTime(Date.parse('2026-07-28T10:00:00Z'));
  const s = new RealStack(kind, seed, SERVER);
  stack = s;
  await s.open();
  s.setConditions(start);
  for (const { answerFirst, command, gapMs } of steps) {
    if (answerFirst) s.page.answerAll();
    switch (command.kind) {
      case 'call':
        s.call(command.tool, command.args, command.declare);
        break;
      case 'answer':
        s.page.answerAll();
        break;
      case 'cancel':
        s.page.cancel(command.index);
        break;
      case 'drop':
        s.network.dropConnection('property: drop');
        break;
      case 'offline':
        s.network.goOffline(command.seconds);
        break;
      case 'kill':
        s.network.killServer('property: kill');
        setTimeout(() => s.node.running || s.network.restartServer(), command.downMs);
        break;
      case 'reload':
        await s.reload();
        break;
      case 'conditions':
        s.setConditions(command.conditions);
        break;
    }
    await s.advance(gapMs);
    checkStoredTasks(s, await s.pageStore.tasks());
  }
  // Heal: a clean network, the server up, and one last broken link so whatever was lost in flight is re-issued (C8).
  s.setConditions({ out: CLEAN, in: CLEAN });
  s.network.goOnline();
  if (!s.node.running) s.network.restartServer();
  await s.advance(200);
  s.network.dropConnection('property: heal');
  // Long enough for every job to end, expire (ttlMs 30 s) or be purged.
  for (let i = 0; i < 4; i++) {
    await s.advance(5000);
    s.page.answerAll();
  }
  await s.advance(20_000);
  return s;
}

const CLEAN = { latencyMs: 0, jitterMs: 0, lossRate: 0, duplicateRate: 0, reorderRate: 0 };

/** T12: every task a page followed is still in the page's store. */
function checkStoredTasks(s: RealStack, stored: { taskId: string }[]): void {
  const kept = new Set(stored.map((t) => t.taskId));
  for (const taskId of s.ledger.followed)
    if (!kept.has(taskId)) s.ledger.violation(`T12: the page lost task ${taskId} from its store`);
}

async function checkInvariants(s: RealStack): Promise<void> {
  const { ledger } = s;
  const stored = await s.pageStore.tasks();
  checkStoredTasks(s, stored);

  // T12: after the last reload every unfinished stored task is followed again.
  const following = new Set(s.page.actors.map((a) => a.getSnapshot().context.taskId));
  for (const task of stored)
    if (!task.outcome && !following.has(task.taskId))
      ledger.violation(`T12: stored task ${task.taskId} was not resumed`);

  // T8: every handle was gettable the moment it left.
  for (const handle of ledger.handles)
    if (!(await handle.gettable))
      ledger.violation(`T8: ${handle.taskId} was not gettable when its CreateTaskResult left`);

  // C8: the server answered each request it got exactly once (links cut by a kill excepted).
  for (const link of ledger.serverLinks) {
    if (link.killed) continue;
    const count = (ids: (string | number)[]) =>
      ids.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string | number, number>());
    const delivered = count(link.delivered);
    const answered = count(link.answered);
    for (const [id, n] of delivered)
      if (answered.get(id) !== n)
        ledger.violation(
          `C8: request ${id} reached the server ${n} time(s) and got ${answered.get(id) ?? 0} response(s)`,
        );
    for (const [id] of answered)
      if (!delivered.has(id)) ledger.violation(`C8: the server answered ${id}, which it never got`);
  }

  for (const page of s.pages) {
    const requests = page.wire.filter(
      (e) =>
        e.direction === 'out' &&
        typeof (e.message as { method?: unknown }).method === 'string' &&
        (e.message as { id?: unknown }).id !== undefined,
    );
    const answeredIds = new Set(
      page.wire
        .filter((e) => e.direction === 'in' && !e.net?.lost)
        .map((e) => (e.message as { id?: unknown }).id),
    );
    const reissued = new Set(page.wire.map((e) => e.reissueOf).filter((id) => id !== undefined));
    // C8: each request is answered or re-issued under a new id, unless its page closed first.
    for (const entry of requests) {
      const id = (entry.message as { id: number }).id;
      if (answeredIds.has(id) || reissued.has(id)) continue;
      if (page.closedAt !== undefined) continue;
      ledger.violation(
        `C8: ${(entry.message as { method: string }).method} ${id} (sent at ${entry.at}) was neither answered nor re-issued`,
      );
    }
  }

  // T12: logical polls of one task are at least pollIntervalMs apart, across pages.
  const polls = new Map<string, { at: number; answered: boolean }[]>();
  const intervals = new Map<string, number>();
  for (const page of s.pages) {
    const answeredIds = new Set(
      page.wire
        .filter((e) => e.direction === 'in' && !e.net?.lost)
        .map((e) => (e.message as { id?: unknown }).id),
    );
    const chains = new Map<number | string, number | string>(); // re-issued id -> first id of its chain
    for (const entry of page.wire) {
      const m = entry.message as {
        id?: number;
        method?: string;
        params?: { taskId?: string };
        result?: { taskId?: string; pollIntervalMs?: number };
      };
      if (
        entry.direction === 'in' &&
        typeof m.result?.taskId === 'string' &&
        typeof m.result.pollIntervalMs === 'number'
      ) {
        intervals.set(
          m.result.taskId,
          Math.min(intervals.get(m.result.taskId) ?? Infinity, m.result.pollIntervalMs),
        );
      }
      if (entry.direction !== 'out' || m.method !== 'tasks/get' || m.id === undefined) continue;
      const first =
        entry.reissueOf !== undefined ? (chains.get(entry.reissueOf) ?? entry.reissueOf) : m.id;
      chains.set(m.id, first);
      const list = polls.get(m.params!.taskId!) ?? [];
      polls.set(m.params!.taskId!, list);
      if (entry.reissueOf === undefined) list.push({ at: entry.at, answered: false });
      // A poll counts as answered once any id of its chain was.
      if (answeredIds.has(m.id)) list.at(-1)!.answered = true;
    }
  }
  for (const [taskId, list] of polls) {
    const interval = intervals.get(taskId) ?? 0;
    for (let i = 1; i < list.length; i++) {
      const gap = list[i]!.at - list[i - 1]!.at;
      // A poll interrupted by a reload is carried on by the next page's first poll.
      if (gap < interval && list[i - 1]!.answered)
        ledger.violation(
          `T12: task ${taskId} polled ${gap} ms after its previous poll (pollIntervalMs ${interval})`,
        );
    }
  }

  // Every tools/call the test made was answered, or abandoned by a reload.
  for (const c of s.calls)
    if (!c.settled && c.page.closedAt === undefined)
      ledger.violation('C8: a tools/call never settled');
}

/** What the runs exercised, so a property that checked nothing cannot pass. */
interface Exercised {
  followed: number;
  terminal: number;
  answered: number;
  polls: number;
  kills: number;
  reloads: number;
  reissued: number;
  repeatedAnswers: number;
}

async function property(kind: StoreKind, runs: number): Promise<void> {
  const exercised: Exercised = {
    followed: 0,
    terminal: 0,
    answered: 0,
    polls: 0,
    kills: 0,
    reloads: 0,
    reissued: 0,
    repeatedAnswers: 0,
  };
  await fc.assert(
    fc.asyncProperty(scenario, async (sc) => {
      let s: RealStack | undefined;
      try {
        s = await run(kind, sc);
        await checkInvariants(s);
        const wire = s.pages.flatMap((p) => p.wire);
        exercised.followed += s.ledger.followed.size;
        exercised.terminal += (await s.pageStore.tasks()).filter((t) =>
          ['completed', 'failed', 'cancelled'].includes(t.task.status),
        ).length;
        exercised.answered += s.ledger.answered.size;
        exercised.polls += wire.filter(
          (e) => e.direction === 'out' && (e.message as { method?: string }).method === 'tasks/get',
        ).length;
        exercised.kills += sc.steps.filter((step) => step.command.kind === 'kill').length;
        exercised.reloads += s.pages.length - 1;
        exercised.reissued += wire.filter((e) => e.reissueOf !== undefined).length;
        exercised.repeatedAnswers += s.ledger.repeatedAnswers;
        if (process.env['FP'])
          console.log(
            'FP',
            JSON.stringify(sc.steps.map((x) => x.command.kind)),
            wire
              .map(
                (e) =>
                  e.direction +
                  ':' +
                  ((e.message as { method?: string }).method ?? 'resp') +
                  '@' +
                  (e.at - 1785232800000) +
                  (e.net?.lost ? 'LOST' : ''),
              )
              .join(' '),
            s.page.actors.map((a) => JSON.stringify(a.getSnapshot().value)),
          );
        if (s.ledger.violations.length > 0)
          throw new Error(
            `${s.ledger.violations.length} invariant(s) broken:\n${s.ledger.violations.join('\n')}`,
          );
      } finally {
        await (s ?? stack)?.close();
        stack = undefined;
        vi.useRealTimers();
      }
    }),
    // On a starved machine, fewer runs rather than a vitest timeout; a failure found by then is still reported.
    {
      ...fcParameters<[Scenario]>(runs),
      examples: [[REPEATED_ANSWER]],
      interruptAfterTimeLimit: 90_000,
    },
  );
  for (const [what, count] of Object.entries(exercised))
    expect(count, `runs that exercised ${what}`).toBeGreaterThan(0);
}

describe('the real client and server under random faults', () => {
  it('T8, T9, T12, T14, T15, C8: invariants hold with the memory store (a killed server restarts on the same store)', async () => {
    await property('memory', 25);
  }, 150_000);

  it('T8, T9, T12, T14, T15, C8: invariants hold with the IndexedDB store (a fresh worker adopts orphaned jobs)', async () => {
    await property('idb', 12);
  }, 150_000);
});
