/**
 * A setup in the address: what "Copy link" writes reads back the same; a
 * bad parameter is named and left out while the rest applies; and two pages
 * opened from the same address see the same faults in the same order (the
 * real stack on a fake clock, the network's fault log compared line by line).
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FaultEvent } from '../../../src/net/fault-log.ts';
import { TRIGGERS } from '../../../src/net/fault-rules.ts';
import { PageSession } from '../../../src/session/page-session.ts';
import {
  applyAfterStart,
  applyBeforeStart,
  currentSetup,
} from '../../../src/record/apply-setup.ts';
import {
  addressWithSeed,
  readSetupAddress,
  setupParams,
} from '../../../src/record/setup-address.ts';
import { MAX_SEED } from '../../../src/record/run-setup.ts';
import { fcParameters } from '../helpers/fc-run.ts';
import { FAKE_TIMERS, Page, RealStack } from '../helpers/real-stack.ts';
import { setupArbitrary } from '../helpers/run-arbitraries.ts';

describe('a setup in the address', () => {
  it('reads back what Copy link wrote (property over random setups)', () => {
    const withTriggers = fc.tuple(
      setupArbitrary,
      fc.array(fc.tuple(fc.constantFrom(...TRIGGERS), fc.integer({ min: 0, max: 4 })), {
        maxLength: 4,
      }),
    );
    fc.assert(
      fc.property(withTriggers, ([setup, picks]) => {
        const actions = [
          { kind: 'drop' as const },
          { kind: 'offline' as const, seconds: 5 },
          { kind: 'kill' as const },
          { kind: 'restart' as const },
          { kind: 'lose' as const },
        ];
        const rules = picks.map(([trigger, a], i) => ({
          id: `rule-${i + 1}`,
          label: 'x',
          when: { ...trigger.when },
          then: actions[a]!,
        }));
        const { params, unshared } = setupParams({ ...setup, rules: [...rules, ...setup.rules] });
        expect(unshared).toEqual(setup.rules);
        const read = readSetupAddress(new URLSearchParams(params.toString()));
        expect(read.problems).toEqual([]);
        expect(read.setup).toEqual({
          seed: setup.seed,
          out: setup.link.out,
          in: setup.link.in,
          ...(rules.length > 0
            ? { rules: picks.map(([t, a]) => ({ trigger: t.id, then: actions[a] })) }
            : {}),
          store: setup.store,
          nodes: setup.cluster.nodes,
          policy: setup.cluster.policy,
          declareTasks: setup.declareTasks,
        });
      }),
      fcParameters(100),
    );
  });

  it('names each bad parameter, leaves it out, and applies the rest', () => {
    const read = readSetupAddress(
      new URLSearchParams(
        'seed=-4&out=80,10,2,0,0&in=1,2&rules=poll-answered:drop,teleport:drop,completed:offline-x&store=disk&nodes=9&policy=fastest&declare=yes',
      ),
    );
    expect(read.setup).toEqual({ rules: [{ trigger: 'poll-answered', then: { kind: 'drop' } }] });
    expect(read.problems).toHaveLength(9);
    for (const [i, name] of [
      'seed',
      'out',
      'in',
      'rules',
      'rules',
      'store',
      'nodes',
      'policy',
      'declare',
    ].entries())
      expect(read.problems[i]).toMatch(new RegExp(`^${name}: `));
    expect(read.problems[1]).toMatch(/lossRate/);
    expect(read.problems[3]).toMatch(/unknown trigger "teleport"/);
    expect(read.problems[4]).toMatch(/unknown action "offline-x"/);
    expect(readSetupAddress(new URLSearchParams('seed=12&view=spec'))).toEqual({
      setup: { seed: 12 },
      problems: [],
    });
    expect(readSetupAddress(new URLSearchParams('seed=1e3'))).toMatchObject({ setup: {} });
  });
});

describe('the seed in the address on a plain load', () => {
  it('puts the seed first and keeps every other parameter as written', () => {
    expect(addressWithSeed('http://x.test/', 42)).toBe('http://x.test/?seed=42');
    expect(addressWithSeed('http://x.test/?scenario=cancel-race&drill#top', 7)).toBe(
      'http://x.test/?seed=7&scenario=cancel-race&drill#top',
    );
  });

  it('replaces a seed already there, wherever it stands, and adds no default', () => {
    expect(addressWithSeed('http://x.test/?view=spec&seed=1&rule=T12', 99)).toBe(
      'http://x.test/?seed=99&view=spec&rule=T12',
    );
    expect(addressWithSeed('http://x.test/?seed=99', 99)).toBe('http://x.test/?seed=99');
  });

  it('reads back as the seed it wrote', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_SEED }), (seed) => {
        const href = addressWithSeed('http://x.test/?seed=5&view=myths', seed);
        const { setup, problems } = readSetupAddress(new URL(href).searchParams);
        expect(problems).toEqual([]);
        expect(setup).toEqual({ seed });
      }),
      fcParameters(200),
    );
  });
});

describe('two pages opened from one address (real stack, fake clock)', () => {
  beforeEach(() => vi.useFakeTimers(FAKE_TIMERS));
  afterEach(() => vi.useRealTimers());

  /** Opens a page from `address` on a fresh stack, makes one call, and reads the network's fault log. */
  async function faultsFrom(address: string): Promise<{
    lines: string[];
    setup: ReturnType<typeof currentSetup>;
    /** The setup as Copy link reads it once the run is over (its rules have fired). */
    after: ReturnType<typeof currentSetup>;
  }> {
    vi.setSystemTime(Date.parse('2026-07-28T10:00:00Z'));
    const stack = new RealStack('memory', 1, { sweepIntervalMs: 0, adoptIntervalMs: 0 });
    try {
      const session = new PageSession({
        endpoint: stack.endpoint,
        pageStore: stack.pageStore,
        seed: 999,
        preferences: undefined,
        clientName: 'property-page',
        wireBatchMs: 1000,
      });
      stack.pages.push(new Page(session, stack.ledger));
      const { setup, problems } = readSetupAddress(new URLSearchParams(address));
      expect(problems).toEqual([]);
      applyBeforeStart(session, undefined, setup);
      const shared = currentSetup(session, undefined, undefined);
      void session.start();
      await stack.settle();
      await session.whenConnected();
      await stack.settle();
      applyAfterStart(session, setup);
      stack.call('slow_compute', { seconds: 3, pollIntervalMs: 300 }, true);
      await stack.advance(15_000);
      // Task ids are random: a fault is compared by what happened, when, to which message.
      const lines = session.network.log.events.map(
        ({ taskId: _id, ...e }: { taskId?: string } & FaultEvent) => JSON.stringify(e),
      );
      return { lines, setup: shared, after: currentSetup(session, undefined, undefined) };
    } finally {
      await stack.close();
    }
  }

  it('C8: the same seed and rules give the same fault sequence; another seed another one', async () => {
    const address =
      'seed=4242&out=20,10,0.25,0.1,0&in=20,10,0.25,0.1,0.2&rules=create-task-result:drop,poll-answered:lose&declare=1';
    const first = await faultsFrom(address);
    const second = await faultsFrom(address);
    expect(first.setup.seed).toBe(4242);
    expect(first.setup.rules.map((r) => r.then)).toEqual([{ kind: 'drop' }, { kind: 'lose' }]);
    expect(first.lines.some((l) => l.includes('packet.lost'))).toBe(true);
    expect(first.lines.filter((l) => l.includes('rule.fired'))).toHaveLength(2);
    expect(second.lines).toEqual(first.lines);
    const other = await faultsFrom(address.replace('seed=4242', 'seed=4243'));
    expect(other.lines).not.toEqual(first.lines);
  });

  it('C8: a link copied after its rules fired (rules fire once) still carries them, and replays the same faults', async () => {
    const address =
      'seed=4242&out=20,10,0.25,0.1,0&in=20,10,0.25,0.1,0.2&rules=create-task-result:drop,poll-answered:lose&declare=1';
    const first = await faultsFrom(address);
    expect(first.lines.filter((l) => l.includes('rule.fired'))).toHaveLength(2);
    expect(first.after.rules.map((r) => r.then)).toEqual([{ kind: 'drop' }, { kind: 'lose' }]);
    const again = await faultsFrom(setupParams(first.after).params.toString());
    expect(again.lines).toEqual(first.lines);
  });
});
