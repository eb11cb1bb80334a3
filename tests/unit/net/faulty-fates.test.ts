/**
 * The fault model as a whole, pinned: a long run through hostile links
 * (jitter, loss, duplication, reordering, rules, a drop and a reconnect,
 * conditions changed midway, a stretch of clean link), every fact any
 * observer hears written down in order, compared with the trace the model
 * drew when it was recorded (`faulty-fates.trace.txt`). The network's
 * per-message work may get cheaper; what a seed makes happen may not move
 * (a recorded run and a share link replay identically, C8).
 *
 * The trace is rewritten by `npx vitest run tests/unit/net/faulty-fates.test.ts -u`:
 * only for a change that means to change the fault model, said so in its commit.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { FaultyNetwork } from '../../../src/net/faulty-network.ts';
import type { FaultyTransport } from '../../../src/net/faulty-transport.ts';
import { CLEAN, type DirectionConditions } from '../../../src/net/link-conditions.ts';
import { Prng } from '../../../src/net/prng.ts';
import type { Scheduler } from '../../../src/net/scheduler.ts';
import { FakeServerEnd, request, result } from '../helpers/fake-link.ts';

const HOSTILE: DirectionConditions = {
  latencyMs: 60,
  jitterMs: 50,
  lossRate: 0.12,
  duplicateRate: 0.15,
  reorderRate: 0.2,
};
const METHODS = ['tasks/get', 'tools/call', 'tasks/cancel', 'tasks/update', 'tasks/list'];

/** Keys sorted, so the trace says what was reported, not in which order an object was built. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

const idOf = (message: unknown): string =>
  String(
    (message as { id?: unknown; method?: unknown }).id ?? (message as { method?: unknown }).method,
  );

/**
 * One run, written down: `soon` gives the scheduler a due-now path (a
 * microtask, as the page's clocks have), which a bare SimulatedClock lacks.
 */
async function trace(soon: boolean): Promise<string[]> {
  const clock = new SimulatedClock();
  const lines: string[] = [];
  const settle = async () => {
    // Microtasks first (the due-now path), then timers due now, until nothing is left to run.
    for (let i = 0; i < 4; i++) {
      await Promise.resolve();
      clock.increment(0);
    }
  };
  const scheduler: Scheduler = soon
    ? {
        now: () => clock.now(),
        setTimeout: (callback, ms) => clock.setTimeout(callback, ms),
        clearTimeout: (handle) => clock.clearTimeout(handle as never),
        soon: (callback) => queueMicrotask(callback),
      }
    : clock;
  const network = new FaultyNetwork({ scheduler, seed: 4242 });
  const say = (line: string) => lines.push(`${clock.now()} ${line}`);
  network.log.subscribe((event) => say(`log ${canonical(event)}`));
  network.onMark(({ message, mark, delivered, transport }) =>
    say(
      `mark #${(transport as FaultyTransport).link} ${idOf(message)} ${delivered} ${canonical(mark)}`,
    ),
  );
  network.onPacketUpdate((update) => say(`update ${canonical(update)}`));
  network.onEnter(({ direction, info }) => say(`enter ${direction} ${canonical(info)}`));
  network.onRulesChanged(() => say(`rules ${network.rules.rules.map((r) => r.id).join(',')}`));
  network.setConditions('out', HOSTILE);
  network.setConditions('in', { ...HOSTILE, latencyMs: 30 });

  // The test's own draws (which request, when), apart from the network's.
  const script = new Prng(77);
  let transport: FaultyTransport | undefined;
  let server: FakeServerEnd | undefined;
  const connect = async () => {
    const end = new FakeServerEnd();
    end.onreceive = (message) => {
      const { id, method, params } = message as {
        id: number;
        method: string;
        params: { taskId: string };
      };
      say(`server got ${id} ${method}`);
      const taskId = params.taskId;
      const answer =
        method === 'tools/call'
          ? result(id, { resultType: 'task', taskId, status: 'working' })
          : id % 13 === 0
            ? { jsonrpc: '2.0', id, error: { code: -32602, message: 'no such task' } }
            : result(id, { taskId, status: id % 3 === 0 ? 'input_required' : 'working' });
      clock.setTimeout(
        () => {
          end.reply(answer);
          if (method === 'tasks/get' && id % 4 === 0)
            end.reply({
              jsonrpc: '2.0',
              method: 'notifications/tasks',
              params: { taskId, status: 'completed' },
            });
        },
        Math.floor(script.between(0, 40)),
      );
    };
    server = end;
    transport = (await network.connector(async () => end)()) as FaultyTransport;
    transport.onmessage = (message) => say(`client got ${idOf(message)}`);
    transport.onclose = (reason) => say(`client closed ${reason}`);
  };
  await connect();
  for (let id = 1; id <= 120; id++) {
    if (id === 30)
      network.arm(
        { label: 'a cancel', when: { direction: 'out', method: 'tasks/cancel' } },
        { kind: 'lose' },
      );
    if (id === 45) network.arm('create-task-result', { kind: 'drop' });
    if (id === 60) network.setConditions('in', CLEAN);
    if (id === 70) network.setConditions('out', CLEAN);
    if (id === 80) network.dropConnection('dropped by the test');
    if (id === 90) network.setConditions('out', { ...HOSTILE, latencyMs: 0, jitterMs: 0 });
    if (id === 100) network.reseed(9);
    if (id === 105) network.arm('input-required', { kind: 'lose' });
    if (id === 112) network.arm('poll-answered', { kind: 'lose' });
    if (!transport || transport.closed) {
      server?.close('gone');
      await connect();
    }
    const method = METHODS[Math.floor(script.between(0, METHODS.length - 0.001))]!;
    void transport!.send(request(id, method, { taskId: `task-${id % 7}` }));
    say(`in flight ${transport!.inFlightCount}`);
    // Bursts: several sends in one tick, then time passes.
    if (script.chance(0.4)) continue;
    const step = Math.floor(script.between(0, 90));
    for (let t = 0; t < step; t += 10) {
      clock.increment(Math.min(10, step - t));
      await settle();
    }
    await settle();
  }
  for (let t = 0; t < 1500; t += 50) {
    clock.increment(50);
    await settle();
  }
  return lines;
}

describe('the fault model, pinned', () => {
  it('C8: a seed replays the same fates, marks, updates, logs and deliveries, with and without a due-now path', async () => {
    const timers = await trace(false);
    const withSoon = await trace(true);
    expect(timers.length).toBeGreaterThan(800);
    await expect(
      ['# SimulatedClock alone', ...timers, '# with soon (a microtask)', ...withSoon, ''].join(
        '\n',
      ),
    ).toMatchFileSnapshot('./faulty-fates.trace.txt');
  });
});
