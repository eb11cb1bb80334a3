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
import { fcParameters } from '../helpers/fc-run.ts';
import { FAKE_TIMERS, RealStack, type StoreKind } from '../helpers/real-stack.ts';
import { checkInvariants, checkStoredTasks } from '../helpers/real-stack-invariants.ts';
import { REPEATED_ANSWER, scenario, type Scenario } from '../helpers/real-stack-scenarios.ts';

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
