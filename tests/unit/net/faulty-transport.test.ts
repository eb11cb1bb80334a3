/**
 * The simulated network on one link, driven by a simulated clock: what it
 * does to each message (delay, loss, duplication, reordering), what it
 * reports, and what a broken link does to messages in flight (C8).
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import type { FaultEvent } from '../../../src/net/fault-log.ts';
import { FaultyNetwork } from '../../../src/net/faulty-network.ts';
import type { FaultyTransport } from '../../../src/net/faulty-transport.ts';
import { CLEAN, type DirectionConditions } from '../../../src/net/link-conditions.ts';
import type { NetMark, PacketUpdate } from '../../../src/net/net-marks.ts';
import { FakeServerEnd, request, result } from '../helpers/fake-link.ts';

async function link(
  options: {
    seed?: number;
    out?: Partial<DirectionConditions>;
    in?: Partial<DirectionConditions>;
  } = {},
) {
  const clock = new SimulatedClock();
  const network = new FaultyNetwork({ scheduler: clock, seed: options.seed ?? 1 });
  network.setConditions('out', { ...CLEAN, ...options.out });
  network.setConditions('in', { ...CLEAN, ...options.in });
  const server = new FakeServerEnd();
  const arrivals: { at: number; message: unknown }[] = [];
  server.onreceive = (message) => arrivals.push({ at: clock.now(), message });
  const transport = (await network.connector(async () => server)()) as FaultyTransport;
  const received: { at: number; message: unknown; mark: NetMark | undefined }[] = [];
  const lost: { message: unknown; mark: NetMark }[] = [];
  const closes: string[] = [];
  const updates: PacketUpdate[] = [];
  // Marks come from the network's observer, not the transport: a sent message's as it enters,
  // a received one's just before the link hands it over, a lost one's instead of it.
  const marks: { out?: NetMark; in?: NetMark } = {};
  network.onMark(({ transport: on, message, mark, delivered }) => {
    expect(on).toBe(transport);
    if (mark.direction === 'in' && !delivered) lost.push({ message, mark });
    else marks[mark.direction] = mark;
  });
  transport.onmessage = (message) => {
    received.push({ at: clock.now(), message, mark: marks.in });
    marks.in = undefined;
  };
  transport.onclose = (reason) => closes.push(reason);
  /** Sends through the link and returns the mark the network reported for it. */
  const send = (message: unknown): NetMark => {
    marks.out = undefined;
    void transport.send(message);
    return marks.out!;
  };
  network.onPacketUpdate((update) => updates.push(update));
  const faults = (kind: FaultEvent['kind']) => network.log.events.filter((e) => e.kind === kind);
  return {
    clock,
    network,
    server,
    transport,
    send,
    arrivals,
    received,
    lost,
    closes,
    updates,
    faults,
  };
}

const ids = (messages: { message: unknown }[]) =>
  messages.map((m) => (m.message as { id: number }).id);

describe('FaultyTransport', () => {
  it('a perfect link delivers in order, marks each message, and reports arrival', async () => {
    const { clock, server, arrivals, received, updates, send } = await link();
    const mark = send(request(1, 'tasks/get', { taskId: 't1' }));
    expect(mark).toMatchObject({ packet: 1, link: 1, direction: 'out', sentAt: 0, delayMs: 0 });
    expect(arrivals).toHaveLength(0); // never synchronous: the wire log sees the send first
    clock.increment(0);
    expect(ids(arrivals)).toEqual([1]);
    expect(updates).toEqual([{ packet: 1, at: 0, deliveredAt: 0 }]);
    server.reply(result(1, { status: 'working' }));
    clock.increment(0);
    expect(received).toHaveLength(1);
    expect(received[0]!.mark).toMatchObject({ direction: 'in', delayMs: 0, deliveredAt: 0 });
  });

  it('latency with jitter: every delay lies in latency ± jitter, per direction', async () => {
    const { clock, server, arrivals, received, send } = await link({
      out: { latencyMs: 300, jitterMs: 100 },
      in: { latencyMs: 50 },
    });
    const marks = [1, 2, 3, 4, 5, 6, 7, 8].map((id) => send(request(id, 'tasks/get')));
    for (const mark of marks) {
      expect(mark.delayMs).toBeGreaterThanOrEqual(200);
      expect(mark.delayMs).toBeLessThanOrEqual(400);
    }
    clock.increment(199);
    expect(arrivals).toHaveLength(0);
    for (let t = 200; t <= 400; t++) clock.increment(1);
    expect(arrivals).toHaveLength(8);
    for (const arrival of arrivals)
      expect(arrival.at).toBe(marks[(arrival.message as { id: number }).id - 1]!.delayMs);
    expect(arrivals.map((a) => a.at)).toEqual([...arrivals.map((a) => a.at)].sort((a, b) => a - b));
    server.reply(result(1, {}));
    clock.increment(49);
    expect(received).toHaveLength(0);
    clock.increment(1);
    expect(received[0]!.mark).toMatchObject({ delayMs: 50, sentAt: 400, deliveredAt: 450 });
  });

  it('a seed replays the same fates; another seed draws others', async () => {
    const fates = async (seed: number) => {
      const { send } = await link({
        seed,
        out: { latencyMs: 200, jitterMs: 150, lossRate: 0.3, duplicateRate: 0.2 },
      });
      return Array.from({ length: 30 }, (_, i) => {
        const mark = send(request(i + 1, 'tasks/get'));
        return [mark.delayMs, mark.lost ?? '', mark.duplicated ?? false];
      });
    };
    expect(await fates(1234)).toEqual(await fates(1234));
    expect(await fates(1234)).not.toEqual(await fates(4321));
  });

  it('loss: a lost request never reaches the server; a lost response is reported, never delivered', async () => {
    const { clock, server, arrivals, received, lost, faults, send } = await link({
      out: { lossRate: 1 },
      in: { lossRate: 1 },
    });
    const mark = send(request(1, 'tasks/get', { taskId: 't1' }));
    expect(mark.lost).toBe('loss');
    server.reply(result(9, { taskId: 't1', status: 'working' }));
    clock.increment(1000);
    expect(arrivals).toHaveLength(0);
    expect(received).toHaveLength(0);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.mark).toMatchObject({ direction: 'in', lost: 'loss' });
    expect(faults('packet.lost')).toMatchObject([
      { direction: 'out', method: 'tasks/get', taskId: 't1', reason: 'loss' },
      { direction: 'in', taskId: 't1', reason: 'loss' },
    ]);
  });

  it('duplication: the server gets a request twice; the page gets a response twice, the copy marked', async () => {
    const { clock, server, arrivals, received, faults, send } = await link({
      out: { duplicateRate: 1, latencyMs: 10 },
      in: { duplicateRate: 1 },
    });
    const mark = send(request(1, 'tasks/update', { taskId: 't1' }));
    expect(mark.duplicated).toBe(true);
    clock.increment(20);
    expect(ids(arrivals)).toEqual([1, 1]);
    server.reply(result(1, {}));
    clock.increment(20);
    expect(received.map((r) => Boolean(r.mark?.duplicate))).toEqual([false, true]);
    expect(received[0]!.mark?.duplicated).toBe(true);
    expect(faults('packet.duplicated')).toHaveLength(2);
  });

  it('reordering: a held message is overtaken by the next one, and both are marked reordered', async () => {
    const { clock, network, arrivals, updates, faults, send } = await link({
      out: { reorderRate: 1, latencyMs: 5 },
    });
    const first = send(request(1, 'tasks/get', { taskId: 'a' }));
    expect(first.heldMs).toBeGreaterThan(0);
    network.setConditions('out', { ...CLEAN, latencyMs: 5 });
    send(request(2, 'tasks/get', { taskId: 'b' }));
    clock.increment(5);
    expect(ids(arrivals)).toEqual([2, 1]); // released right after the one that overtook it
    expect(updates.map((u) => [u.packet, u.reordered])).toEqual([
      [2, true],
      [1, true],
    ]);
    expect(faults('packet.reordered').map((e) => ('taskId' in e ? e.taskId : ''))).toEqual([
      'b',
      'a',
    ]);
  });

  it('reordering with nothing behind it: held, then delivered alone, not marked reordered', async () => {
    const { clock, arrivals, updates, send } = await link({ out: { reorderRate: 1 } });
    const mark = send(request(1, 'tasks/get'));
    clock.increment(mark.delayMs - 1);
    expect(arrivals).toHaveLength(0);
    clock.increment(1);
    expect(arrivals).toHaveLength(1);
    expect(updates[0]!.reordered).toBeUndefined();
  });

  it('C8: dropping the link loses everything in flight, both ways, and closes both ends once', async () => {
    const { clock, transport, send, server, network, arrivals, lost, closes, updates, faults } =
      await link({ out: { latencyMs: 100 }, in: { latencyMs: 100 } });
    const mark = send(request(1, 'tasks/get', { taskId: 't1' }));
    server.reply(result(0, { taskId: 't0', status: 'working' }));
    clock.increment(50);
    network.dropConnection('dropped by test');
    clock.increment(500);
    expect(arrivals).toHaveLength(0);
    expect(updates).toEqual([{ packet: mark.packet, at: 50, lost: 'link-dropped' }]);
    expect(lost.map((l) => l.mark.lost)).toEqual(['link-dropped']);
    expect(closes).toEqual(['dropped by test']);
    expect(server.closed).toBe(true);
    expect(transport.closed).toBe(true);
    expect(faults('link.dropped')).toMatchObject([
      { link: 1, reason: 'dropped by test', inFlight: 2 },
    ]);
    await expect(transport.send(request(2, 'tasks/get'))).rejects.toThrow('transport is closed');
    expect(network.openLinks).toBe(0);
  });

  it('C8: observers get each mark itself, and it never changes after it was reported', async () => {
    const { clock, network, server, send } = await link({
      seed: 99,
      out: { latencyMs: 20, jitterMs: 15, lossRate: 0.2, duplicateRate: 0.3, reorderRate: 0.3 },
      in: { latencyMs: 20, jitterMs: 15, lossRate: 0.2, duplicateRate: 0.3, reorderRate: 0.3 },
    });
    const reported: { mark: object; json: string }[] = [];
    network.onMark(({ mark }) => reported.push({ mark, json: JSON.stringify(mark) }));
    for (let id = 1; id <= 60; id++) {
      send(request(id, 'tasks/get', { taskId: `t${id % 5}` }));
      server.reply(result(id, { taskId: `t${id % 5}`, status: 'working' }));
      clock.increment(id % 3 === 0 ? 0 : 7);
    }
    clock.increment(2000);
    expect(reported.length).toBeGreaterThan(100);
    expect(new Set(reported.map((r) => r.mark)).size).toBe(reported.length);
    for (const { mark, json } of reported) expect(JSON.stringify(mark)).toBe(json);
  });

  it('a server end that breaks (worker killed) breaks the link the same way', async () => {
    const { clock, server, lost, closes, updates, send } = await link({
      out: { latencyMs: 100 },
      in: { latencyMs: 100 },
    });
    send(request(1, 'tasks/get'));
    server.reply(result(0, {}));
    server.close('server worker killed');
    clock.increment(500);
    expect(closes).toEqual(['server worker killed']);
    expect(updates.map((u) => u.lost)).toEqual(['link-dropped']);
    expect(lost).toHaveLength(1);
  });
});
