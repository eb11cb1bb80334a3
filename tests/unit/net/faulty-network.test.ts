/**
 * The network's big faults and scheduled rules, on a simulated clock:
 * offline for N seconds, kill and restart the server, "drop right after the
 * next CreateTaskResult", and the fault log the timelines draw.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { describeFault, faultsForTask } from '../../../src/net/fault-log.ts';
import { FaultyNetwork, type ServerControl } from '../../../src/net/faulty-network.ts';
import type { NetMark } from '../../../src/net/net-marks.ts';
import type { FaultyTransport } from '../../../src/net/faulty-transport.ts';
import { FakeServerEnd, request, result } from '../helpers/fake-link.ts';

class FakeServer implements ServerControl {
  running = true;
  generation = 1;
  readonly ends = new Set<FakeServerEnd>();
  kill(reason = 'killed'): void {
    this.running = false;
    for (const end of this.ends) end.close(reason);
    this.ends.clear();
  }
  restart(): void {
    this.kill('restarted');
    this.running = true;
    this.generation++;
  }
  async connect(): Promise<FakeServerEnd> {
    if (!this.running) throw new Error('server worker is not running');
    const end = new FakeServerEnd();
    this.ends.add(end);
    return end;
  }
}

function setup() {
  const clock = new SimulatedClock();
  const server = new FakeServer();
  const network = new FaultyNetwork({ scheduler: clock, seed: 5, server });
  const connect = network.connector(() => server.connect());
  const kinds = () => network.log.events.map((e) => e.kind);
  return { clock, server, network, connect, kinds };
}

const createTaskResult = (id: number, taskId: string) =>
  result(id, {
    resultType: 'task',
    taskId,
    status: 'working',
    createdAt: '2026-07-28T10:00:00Z',
    lastUpdatedAt: '2026-07-28T10:00:00Z',
    ttlMs: null,
  });

describe('FaultyNetwork', () => {
  it('offline for N seconds: the link breaks, every connect is refused until then, then works', async () => {
    const { clock, network, connect, kinds } = setup();
    const link = (await connect()) as FaultyTransport;
    network.goOffline(3);
    expect(link.closed).toBe(true);
    expect(network.offlineUntil).toBe(3000);
    await expect(connect()).rejects.toThrow('network offline');
    clock.increment(2000);
    await expect(connect()).rejects.toThrow('network offline');
    expect(
      network.log.events.filter((e) => e.kind === 'connect.refused').map(describeFault),
    ).toEqual([
      'connect refused: network offline (3.0 s left)',
      'connect refused: network offline (1.0 s left)',
    ]);
    clock.increment(1000);
    expect(network.offline).toBe(false);
    await expect(connect()).resolves.toBeDefined();
    expect(kinds()).toEqual([
      'link.opened',
      'network.offline',
      'link.dropped',
      'connect.refused',
      'connect.refused',
      'network.online',
      'link.opened',
    ]);
  });

  it('back online early ends the offline window at once', async () => {
    const { network, connect } = setup();
    network.goOffline(60);
    network.goOnline();
    await expect(connect()).resolves.toBeDefined();
  });

  it('kill: every link breaks and connects fail until a fresh server starts (worker #2)', async () => {
    const { server, network, connect, kinds } = setup();
    const link = (await connect()) as FaultyTransport;
    const reasons: string[] = [];
    link.onclose = (reason) => reasons.push(reason);
    network.killServer();
    expect(reasons).toEqual(['server worker killed']);
    await expect(connect()).rejects.toThrow('not running');
    network.restartServer();
    expect(server.generation).toBe(2);
    await expect(connect()).resolves.toBeDefined();
    expect(kinds()).toEqual([
      'link.opened',
      'link.dropped',
      'server.killed',
      'connect.refused',
      'server.started',
      'link.opened',
    ]);
  });

  it('M3: "drop right after the next CreateTaskResult" delivers it, then drops; the rule fires once', async () => {
    const { clock, server, network, connect } = setup();
    network.arm('create-task-result', { kind: 'drop' });
    const link = (await connect()) as FaultyTransport;
    const end = [...server.ends][0]!;
    const got: unknown[] = [];
    const closes: string[] = [];
    link.onmessage = (message) => got.push(message);
    link.onclose = (reason) => closes.push(reason);
    link.send(request(1, 'tools/call', { name: 'greet' }));
    clock.increment(0);
    end.reply(result(1, { resultType: 'complete', content: [] })); // not a CreateTaskResult: no fault
    clock.increment(0);
    expect(closes).toEqual([]);
    link.send(request(2, 'tools/call', { name: 'slow_compute' }));
    clock.increment(0);
    end.reply(createTaskResult(2, 'task-abc'));
    clock.increment(0);
    expect(got).toHaveLength(2); // the CreateTaskResult itself arrived (T8: the task exists)
    expect(closes).toEqual(['rule: When the next CreateTaskResult arrives: drop the connection']);
    expect(network.rules.rules).toHaveLength(0);
    const fired = network.log.events.find((e) => e.kind === 'rule.fired');
    expect(fired).toMatchObject({ ruleId: 'rule-1', taskId: 'task-abc' });
    const again = (await connect()) as FaultyTransport;
    const reasons: string[] = [];
    again.onclose = (reason) => reasons.push(reason);
    [...server.ends].at(-1)!.reply(createTaskResult(3, 'task-def'));
    clock.increment(0);
    expect(reasons).toEqual([]);
  });

  it('"kill the server while a task is input_required" fires on a polled or pushed report', async () => {
    const { clock, server, network, connect } = setup();
    network.arm('input-required', { kind: 'kill' });
    const link = (await connect()) as FaultyTransport;
    const end = [...server.ends][0]!;
    link.send(request(1, 'tasks/get', { taskId: 't1' }));
    clock.increment(0);
    end.reply(result(1, { taskId: 't1', status: 'working' }));
    clock.increment(0);
    expect(server.running).toBe(true);
    end.reply({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { taskId: 't1', status: 'input_required' },
    });
    clock.increment(0);
    expect(server.running).toBe(false);
    expect(link.closed).toBe(true);
    expect(network.log.events.filter((e) => e.kind === 'server.killed')).toHaveLength(1);
  });

  it('a rule on a request fires when it reaches the server; "lose" loses that message instead', async () => {
    const { clock, server, network, connect } = setup();
    network.arm('update-arrives', { kind: 'lose' });
    network.arm('cancel-arrives', { kind: 'offline', seconds: 2 });
    const link = (await connect()) as FaultyTransport;
    const end = [...server.ends][0]!;
    const updates: unknown[] = [];
    network.onPacketUpdate((update) => updates.push(update));
    const marks: NetMark[] = [];
    network.onMark((event) => marks.push(event.mark));
    void link.send(request(1, 'tasks/update', { taskId: 't1', inputResponses: {} }));
    const mark = marks.at(-1)!; // the network reports a sent message's mark as it enters
    expect(mark).toMatchObject({ direction: 'out', link: 1 });
    clock.increment(0);
    expect(end.received).toEqual([]);
    expect(updates).toEqual([
      {
        packet: mark.packet,
        at: 0,
        lost: 'rule',
        rule: 'When a tasks/update reaches the server: lose that message',
      },
    ]);
    link.send(request(2, 'tasks/cancel', { taskId: 't1' }));
    clock.increment(0);
    expect(end.received).toHaveLength(1); // delivered, then the network went offline
    expect(network.offline).toBe(true);
    expect(link.closed).toBe(true);
  });

  it('faultsForTask: a task sees faults on its own messages and every link, network and server fault', async () => {
    const { clock, server, network, connect } = setup();
    network.setConditions('out', {
      latencyMs: 0,
      jitterMs: 0,
      lossRate: 1,
      duplicateRate: 0,
      reorderRate: 0,
    });
    const link = (await connect()) as FaultyTransport;
    link.send(request(1, 'tasks/get', { taskId: 'mine' }));
    link.send(request(2, 'tasks/get', { taskId: 'other' }));
    clock.increment(0);
    network.killServer();
    void server;
    const mine = faultsForTask(network.log.events, 'mine');
    expect(mine.map((e) => e.kind)).toEqual([
      'link.opened',
      'packet.lost',
      'link.dropped',
      'server.killed',
    ]);
    expect(mine.map(describeFault)).toEqual([
      'link #1 opened',
      'lost → tasks/get mine (loss rate)',
      'link #1 dropped: server worker killed',
      'server worker #1 killed',
    ]);
  });
});
