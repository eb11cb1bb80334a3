/**
 * Pause time, end to end in Node: the page's client, task actor and
 * simulated network on the page's world clock, the real playground server
 * on a world clock that follows it (as the worker's does, through its
 * control channel), all on one simulated wall clock. Paused, nothing moves:
 * no poll, no message delivered, no job step, no lease renewal or expiry,
 * no TTL sweep. Resumed, everything goes on with the time it had left.
 */
import { SimulatedClock } from 'xstate';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcClient, type WireEntry } from '../../../src/client/rpc-client.ts';
import { TaskFollower, type TaskActor } from '../../../src/client/task-follower.ts';
import { callTool } from '../../../src/client/tool-call.ts';
import { WorldClock } from '../../../src/clock/world-clock.ts';
import { nextPollDueAt } from '../../../src/machines/task-machine-timing.ts';
import { Breakpoints } from '../../../src/net/breakpoints.ts';
import { FaultyNetwork } from '../../../src/net/faulty-network.ts';
import { cleanLink } from '../../../src/net/link-conditions.ts';
import { PortTransport } from '../../../src/net/port-transport.ts';
import { WorldClockMessageSchema } from '../../../src/protocol/worker-control.ts';
import { MemoryTaskStore } from '../../../src/server/memory-task-store.ts';
import {
  createPlaygroundServer,
  type PlaygroundServerOptions,
} from '../../../src/server/playground-server.ts';
import { servePort } from '../../../src/server/port-host.ts';
import { leaseIsFree } from '../../../src/server/task-durability.ts';
import type { TaskRecord } from '../../../src/server/task-store.ts';

const realTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const LATENCY_MS = 50;

let closeStack: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeStack?.();
  closeStack = undefined;
});

async function pausableStack(serverOptions: PlaygroundServerOptions = {}) {
  const wall = new SimulatedClock();
  wall.set(Date.parse('2026-07-28T12:00:00Z'));
  const page = new WorldClock(wall);
  const serverClock = new WorldClock(wall);
  // What ServerWorker.followClock and the worker do, minus the thread: each change, validated.
  const tell = () =>
    serverClock.sync(WorldClockMessageSchema.parse({ type: 'world-clock', ...page.state }));
  page.subscribe(tell);
  tell();
  const store = new MemoryTaskStore();
  const writes: TaskRecord[] = [];
  store.subscribe((record) => writes.push(record));
  const server = createPlaygroundServer({ ...serverOptions, store, timers: serverClock });
  const link = cleanLink();
  const network = new FaultyNetwork({
    scheduler: page,
    seed: 7,
    conditions: {
      out: { ...link.out, latencyMs: LATENCY_MS },
      in: { ...link.in, latencyMs: LATENCY_MS },
    },
  });
  const breakpoints = new Breakpoints(network, (reason) => page.pause(reason));
  const wire: (WireEntry & { wall: number })[] = [];
  let follower: TaskFollower | undefined;
  const client = new RpcClient({
    clientInfo: { name: 'world-pause', version: '1.0.0' },
    connect: network.connector(async () => {
      const channel = new MessageChannel();
      servePort(server, channel.port2, 'learner');
      return new PortTransport(channel.port1);
    }),
    marks: network,
    scheduler: page,
    onWire: (entry) => wire.push({ ...entry, wall: wall.now() }),
    onNotification: (notification) => follower?.notify(notification),
    onConnectionState: (state, _detail, info) => follower?.connectionChanged(state, info),
  });
  follower = new TaskFollower(client, { clock: page, now: () => page.now() });

  /** Lets real work settle (message ports, hashing), then moves wall time on, `step` ms at a time. */
  const advance = async (ms: number, step = 10) => {
    for (let t = 0; t < ms; t += step) {
      for (let i = 0; i < 6; i++) await realTurn();
      wall.increment(Math.min(step, ms - t));
    }
    for (let i = 0; i < 6; i++) await realTurn();
  };
  const advanceUntil = async (done: () => boolean, maxMs = 30_000) => {
    for (let t = 0; t < maxMs && !done(); t += 10) await advance(10);
    expect(done()).toBe(true);
  };
  const sent = (method: string) =>
    wire.filter(
      (e) => e.direction === 'out' && (e.message as { method?: string }).method === method,
    );
  const answered = (request: WireEntry) =>
    wire.some(
      (e) =>
        e.direction === 'in' &&
        (e.message as { id?: unknown }).id === (request.message as { id?: unknown }).id,
    );
  const follow = async (name: string, args: Record<string, unknown>): Promise<TaskActor> => {
    const calling = callTool(client, { name, arguments: args, tasks: true });
    let outcome: Awaited<typeof calling> | undefined;
    void calling.then((o) => (outcome = o));
    await advanceUntil(() => outcome !== undefined);
    if (outcome?.kind !== 'task') throw new Error(`no task handle: ${outcome?.kind}`);
    return follower.follow(outcome.task, name);
  };
  const stored = async (taskId: string) => {
    const record = await store.get(taskId);
    if (!record) throw new Error(`task ${taskId} is not in the store`);
    return record;
  };

  void client.start();
  await advanceUntil(() => client.state === 'open');
  closeStack = async () => {
    follower.stopAll();
    client.close();
    await server.close();
  };
  return {
    wall,
    page,
    serverClock,
    server,
    store,
    writes,
    breakpoints,
    wire,
    sent,
    answered,
    follow,
    stored,
    advance,
    advanceUntil,
  };
}

describe('Pause time (the world clock)', () => {
  it('T12: paused, no tasks/get leaves, no job step or lease renewal is stored, the lease does not expire; resumed, all go on', async () => {
    const s = await pausableStack();
    const actor = await s.follow('slow_compute', { seconds: 4, pollIntervalMs: 500 });
    await s.advanceUntil(() => s.sent('tasks/get').length >= 2);
    const taskId = actor.getSnapshot().context.taskId;

    s.page.pause();
    const polls = s.sent('tasks/get').length;
    const writes = s.writes.length;
    const before = await s.stored(taskId);
    expect(before.status).toBe('working');
    expect(before.lease).toBeDefined();
    await s.advance(60_000, 100); // A minute of wall time: far past the lease (a few s) and the job.

    expect(s.sent('tasks/get')).toHaveLength(polls);
    expect(s.writes).toHaveLength(writes); // No job step, no checkpoint, no heartbeat.
    const held = await s.stored(taskId);
    expect(held).toEqual(before);
    expect(leaseIsFree(held, s.serverClock.now())).toBe(false);
    expect(actor.getSnapshot().status).toBe('active');
    expect(s.page.now()).toBe(s.serverClock.now());

    s.page.resume();
    await s.advanceUntil(() => actor.getSnapshot().context.outcome !== undefined);
    expect(actor.getSnapshot().context.outcome).toBe('completed');
    expect(s.sent('tasks/get').length).toBeGreaterThan(polls);
    expect(s.writes.length).toBeGreaterThan(writes);
    // The job's 4 s ran in world time: the minute's pause is not in it.
    const done = await s.stored(taskId);
    expect(done.lastUpdatedAt - done.createdAt).toBeLessThan(6000);
  });

  it('T13: paused past a task’s TTL in wall time, the task is not expired: the TTL runs in world time', async () => {
    const s = await pausableStack({ sweepIntervalMs: 500 });
    const actor = await s.follow('flash_sale_quote', {}); // ttlMs 4000
    const taskId = actor.getSnapshot().context.taskId;
    await s.advance(500);
    s.page.pause();
    await s.advance(20_000, 100);
    expect((await s.stored(taskId)).status).not.toBe('failed');
    s.page.resume();
    await s.advanceUntil(() => actor.getSnapshot().context.outcome !== undefined);
    // Expired after its 4 s of world time (the sweep or a poll past the TTL says so), not before.
    expect(actor.getSnapshot().context.outcome).toMatch(/expired|failed/);
    const record = await s.store.get(taskId);
    if (record) expect(record.status).toBe('failed');
  });

  it('T12: at 0.5x the polls come pollIntervalMs apart in world time, twice that in wall time', async () => {
    const s = await pausableStack();
    s.page.setRate(0.5);
    await s.follow('slow_compute', { seconds: 30, pollIntervalMs: 1000 });
    await s.advanceUntil(() => s.sent('tasks/get').length >= 4, 60_000);
    const gets = s.sent('tasks/get');
    for (let i = 1; i < gets.length; i++) {
      const world = gets[i]!.at - gets[i - 1]!.at;
      const wall = gets[i]!.wall - gets[i - 1]!.wall;
      // T12's rule with the answer a round trip after the poll: 100 ms, more than the 50 ms slack,
      // so the interval less its slack after the answer (1,050 ms from the send).
      const due = nextPollDueAt(0, 2 * LATENCY_MS, 1000);
      expect(due).toBe(1050);
      expect(world).toBeGreaterThanOrEqual(due);
      expect(world).toBeLessThan(due + 30);
      expect(Math.abs(wall - 2 * world)).toBeLessThanOrEqual(20); // Within the test's 10 ms wall steps.
    }
  });

  it('T17: a breakpoint on tasks/cancel pauses the world with the cancel in flight: sent, not delivered, not answered', async () => {
    const s = await pausableStack();
    s.breakpoints.add({ kind: 'cancel-in-flight' });
    const actor = await s.follow('slow_compute', { seconds: 20, pollIntervalMs: 500 });
    const taskId = actor.getSnapshot().context.taskId;
    await s.advance(700);
    expect(s.page.paused).toBe(false);
    actor.send({ type: 'task.cancel' });
    await s.advance(10);
    expect(s.page.paused).toBe(true);
    expect(s.page.reason).toContain('tasks/cancel');
    const [cancel] = s.sent('tasks/cancel');
    expect(cancel).toBeDefined();
    await s.advance(30_000, 100);
    // Still in the network: the server never heard it, the client never heard back.
    expect(s.answered(cancel!)).toBe(false);
    expect((await s.stored(taskId)).cancelRequested).toBe(false);
    expect((await s.stored(taskId)).status).toBe('working');

    s.page.resume();
    await s.advanceUntil(() => actor.getSnapshot().context.outcome !== undefined);
    expect(s.answered(cancel!)).toBe(true);
    expect(actor.getSnapshot().context.outcome).toBe('cancelled');
  });

  it('T12: a breakpoint on status completed pauses as the answer enters the network, before the client hears it', async () => {
    const s = await pausableStack();
    s.breakpoints.add({ kind: 'match', method: 'tasks/get', status: 'completed' });
    const actor = await s.follow('slow_compute', { seconds: 1, pollIntervalMs: 300 });
    const taskId = actor.getSnapshot().context.taskId;
    await s.advanceUntil(() => s.page.paused);
    expect(s.page.reason).toContain('status completed');
    expect((await s.stored(taskId)).status).toBe('completed');
    await s.advance(5000, 100);
    expect(actor.getSnapshot().context.task.status).toBe('working');
    // Step: the next timer due is that answer's delivery.
    s.page.step();
    await s.advance(10);
    expect(actor.getSnapshot().context.outcome).toBe('completed');
    expect(s.page.paused).toBe(true);
  });
});
