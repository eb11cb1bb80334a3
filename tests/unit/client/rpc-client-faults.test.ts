/**
 * The page's RpcClient over the fault-injecting network, on a simulated
 * clock: re-issue under new ids after a broken link or a timeout (C8),
 * reconnect with a backoff the page can count down, and the network's marks
 * on every wire entry.
 */
import { describe, expect, it } from 'vitest';
import { CLEAN } from '../../../src/net/link-conditions.ts';
import { faultyStack } from '../helpers/faulty-stack.ts';

const idOf = (entry: { message: unknown }) => (entry.message as { id?: number }).id;

describe('RpcClient under faults', () => {
  it('C8, M3: a tasks/get in flight when the link drops is re-issued under a new id and answered once', async () => {
    const s = await faultyStack({ conditions: { out: { ...CLEAN, latencyMs: 100 }, in: CLEAN } });
    const actor = s.follow({ workMs: 60_000 });
    const { taskId } = actor.getSnapshot().context;
    await s.advance(550); // the first poll left at 500 and is still in the network
    expect(s.sent('tasks/get')).toHaveLength(1);
    const lost = s.sent('tasks/get')[0]!;
    s.network.dropConnection('test drop');
    await s.advance(400);
    const gets = s.sent('tasks/get', taskId);
    expect(gets).toHaveLength(2);
    expect(gets[1]).toMatchObject({ reissueOf: idOf(lost), reissueReason: 'link' });
    expect(idOf(gets[1]!)).not.toBe(idOf(lost));
    expect(s.updates.find((u) => u.packet === lost.net?.packet)).toMatchObject({
      lost: 'link-dropped',
    });
    expect(actor.getSnapshot().context.polls).toBe(1); // one logical poll, sent twice
    expect(s.server.requests.filter((r) => r.method === 'tasks/get').map((r) => r.taskId)).toEqual([
      taskId,
    ]);
  });

  it('C8: with no answer before the timeout, the request is re-issued under a new id; the late answer is ignored', async () => {
    const s = await faultyStack({ requestTimeoutMs: 2000 });
    s.network.arm('poll-answered', { kind: 'lose' });
    const actor = s.follow({ workMs: 60_000 });
    await s.advance(2600);
    const gets = s.sent('tasks/get');
    expect(gets).toHaveLength(2);
    expect(gets[1]).toMatchObject({ reissueOf: idOf(gets[0]!), reissueReason: 'timeout' });
    expect(gets[1]!.at - gets[0]!.at).toBe(2000);
    const lostAnswer = s.wire.find((e) => e.direction === 'in' && e.net?.lost === 'rule');
    expect(lostAnswer).toBeDefined(); // logged for the sequence view, never handled
    expect(actor.getSnapshot().context.polls).toBe(1);
    expect(actor.getSnapshot().matches({ active: { lifecycle: 'waiting' } })).toBe(true);
  });

  it('C8, T12: the tasks/get after a re-issued one is paced from the re-issue, one interval after it left', async () => {
    const s = await faultyStack({ requestTimeoutMs: 2000 });
    s.network.arm('poll-answered', { kind: 'lose' });
    const actor = s.follow({ workMs: 60_000 });
    await s.advance(4000);
    const gets = s.sent('tasks/get');
    const interval = actor.getSnapshot().context.task.pollIntervalMs!;
    expect(gets.length).toBeGreaterThanOrEqual(3);
    expect(gets[1]).toMatchObject({ reissueOf: idOf(gets[0]!) });
    // Paced from the first send instead, the next would leave at once on the re-issue's answer.
    expect(gets[2]!.at - gets[1]!.at).toBe(interval);
  });

  it('reconnects with doubling backoff, reporting the attempt and when the next one starts', async () => {
    const s = await faultyStack();
    s.network.killServer();
    await s.advance(2000);
    const waits = s.states.filter(
      (st) => st.state === 'reconnecting' && st.info?.retryAt !== undefined,
    );
    expect(waits.map((w) => w.info!.attempt)).toEqual([1, 2, 3, 4]);
    expect(waits.map((w) => w.info!.retryAt! - w.at)).toEqual([250, 500, 1000, 2000]);
    expect(waits[0]!.info!.reason).toBe('server worker killed');
    expect(waits[1]!.info!.reason).toBe('server worker is not running');
    s.network.restartServer();
    await s.advance(2000);
    expect(s.client.state).toBe('open');
    expect(s.states.at(-1)).toMatchObject({ state: 'open', info: { attempt: 0 } });
  });

  it('a poll the machine sends as the link reopens goes out once, not also as a re-issue', async () => {
    const s = await faultyStack();
    const actor = s.follow({ workMs: 60_000 });
    s.network.goOffline(3);
    await s.advance(4500);
    expect(actor.getSnapshot().context.polls).toBeGreaterThan(0);
    const gets = s.sent('tasks/get');
    expect(gets.filter((g) => g.reissueOf !== undefined)).toEqual([]);
    const ids = gets.map(idOf);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('marks every entry: sent ones learn when they arrived, received ones say how long they took', async () => {
    const s = await faultyStack({
      conditions: { out: { ...CLEAN, latencyMs: 120 }, in: { ...CLEAN, latencyMs: 30 } },
    });
    s.follow({ workMs: 60_000 });
    await s.advance(1000);
    const out = s.sent('tasks/get')[0]!;
    expect(out.net).toMatchObject({ direction: 'out', delayMs: 120, link: 1 });
    expect(s.updates.find((u) => u.packet === out.net!.packet)).toMatchObject({
      deliveredAt: out.at + 120,
    });
    const answer = s.wire.find((e) => e.direction === 'in' && idOf(e) === idOf(out))!;
    expect(answer.net).toMatchObject({ direction: 'in', delayMs: 30, deliveredAt: answer.at });
  });
});
