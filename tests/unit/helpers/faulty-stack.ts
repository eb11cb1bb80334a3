/**
 * The page's whole client stack (RpcClient, TaskFollower, TaskSubscription)
 * over the fault-injecting network to a scripted server, all on one
 * simulated clock, so a run full of faults is quick and repeatable.
 */
import { SimulatedClock } from 'xstate';
import {
  RpcClient,
  type ConnectionInfo,
  type ConnectionState,
  type WireEntry,
} from '../../../src/client/rpc-client.ts';
import { TaskFollower, type TaskActor } from '../../../src/client/task-follower.ts';
import { TaskSubscription, type PushStatus } from '../../../src/client/task-subscription.ts';
import { FaultyNetwork } from '../../../src/net/faulty-network.ts';
import type { LinkConditions } from '../../../src/net/link-conditions.ts';
import type { PacketUpdate } from '../../../src/net/net-marks.ts';
import { BASE, ScriptedServer, type TaskScript } from './scripted-server.ts';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface StackOptions {
  seed?: number;
  conditions?: LinkConditions;
  /** The request timeout after which tasks/* are re-issued (C8). */
  requestTimeoutMs?: number;
}

export async function faultyStack(options: StackOptions = {}) {
  const clock = new SimulatedClock();
  const server = new ScriptedServer(clock);
  const network = new FaultyNetwork({
    scheduler: clock,
    seed: options.seed ?? 1,
    server,
    ...(options.conditions ? { conditions: options.conditions } : {}),
  });
  const wire: WireEntry[] = [];
  const updates: PacketUpdate[] = [];
  const states: { at: number; state: ConnectionState; info: ConnectionInfo | undefined }[] = [];
  const pushStatuses: PushStatus[] = [];
  network.onPacketUpdate((update) => updates.push(update));
  let follower: TaskFollower | undefined;
  let subscription: TaskSubscription | undefined;
  const client = new RpcClient({
    clientInfo: { name: 'faulty-stack', version: '1.0.0' },
    connect: network.connector(() => server.connect()),
    marks: network,
    scheduler: clock,
    onWire: (entry) => wire.push(entry),
    onNotification: (notification) => {
      subscription?.handle(notification);
      follower?.notify(notification);
    },
    onConnectionState: (state, _detail, info) => {
      states.push({ at: clock.now(), state, info });
      follower?.connectionChanged(state, info);
      subscription?.connectionChanged(state);
    },
  });
  subscription = new TaskSubscription(client, {
    scheduler: clock,
    onstatus: (status) => pushStatuses.push(status),
  });
  follower = new TaskFollower(client, {
    clock,
    now: () => BASE + clock.now(),
    ...(options.requestTimeoutMs !== undefined
      ? { requestTimeoutMs: options.requestTimeoutMs }
      : {}),
    onchange: (taskIds) => subscription?.setTaskIds(taskIds),
  });
  await client.start();

  /** Advances simulated time in small steps, letting promises settle between them. */
  const advance = async (ms: number, step = 5) => {
    for (let t = 0; t < ms; t += step) {
      clock.increment(Math.min(step, ms - t));
      await flush();
    }
  };
  /** Starts a task on the server and follows it, as a CreateTaskResult would. */
  const follow = (script: TaskScript, tool = 'scripted'): TaskActor =>
    follower!.follow(server.create(script), tool);
  /** Wire entries the page sent for `method`, optionally about one task. */
  const sent = (method: string, taskId?: string) =>
    wire.filter((e) => {
      const m = e.message as { method?: string; params?: { taskId?: string } };
      return (
        e.direction === 'out' &&
        m.method === method &&
        (taskId === undefined || m.params?.taskId === taskId)
      );
    });
  return {
    clock,
    server,
    network,
    client,
    follower,
    subscription,
    wire,
    updates,
    states,
    pushStatuses,
    advance,
    follow,
    sent,
    flush,
  };
}
