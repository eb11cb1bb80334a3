/**
 * Bench page (never in the app's bundle): the page's poll schedule run by
 * the smallest client there is (bench/floor-follower.ts), against the real
 * server worker following the same `slow_compute` tasks as page-follow.
 * `scripts/bench/schedule-floor.ts` drives it through `window.floor`.
 *
 * Two paths to the worker:
 * - `bare`: JSON-RPC objects posted straight on the worker's MessagePort,
 *   one per `postMessage` or (a batched port, as the page's) one array per
 *   burst; an answer is matched by id and checked to carry its task;
 * - `page`: the page's own client path, `RpcClient` through a clean
 *   `FaultyNetwork` over a batched `PortTransport` (as `ServerWorker.connect`
 *   builds it), each answer validated by `getTask`: no machines, no journal,
 *   no wire log, no UI.
 * The polls and answers per `postMessage` are counted at the page's own
 * port (its `postMessage` and a listener of its own), nothing in `src/`.
 */
import { RpcClient } from '../src/client/rpc-client.ts';
import { getTask } from '../src/client/task-lookup.ts';
import { FaultyNetwork } from '../src/net/faulty-network.ts';
import { PortTransport } from '../src/net/port-transport.ts';
import { Method } from '../src/protocol/constants.ts';
import { messagesOf } from '../src/protocol/port-batches.ts';
import { CreateTaskResultSchema } from '../src/protocol/task.ts';
import type { ConnectMessage, StartMessage } from '../src/protocol/worker-control.ts';
import { FloorFollower, type FollowerRecord, type PollLink } from './floor-follower.ts';

const IDENTITY = 'bench-schedule-floor';

export interface Variant {
  path: 'bare' | 'page';
  /** Polls per group at the start; above 1, answers handled in one task share a timer (and a `postMessage`). */
  burst: number;
}

interface Server {
  worker: Worker;
  taskIds: string[];
  /** A `tasks/get` as the page's client sends it, for the bare path to copy. */
  template: { jsonrpc: '2.0'; method: string; params: Record<string, unknown> };
}

let server: Server | undefined;

/** A new MessagePort to the worker, counted at the page's end. */
function connect(worker: Worker, batched: boolean): MessagePort {
  const channel = new MessageChannel();
  const message: ConnectMessage = { type: 'connect', identity: IDENTITY, batched };
  worker.postMessage(message, [channel.port2]);
  return channel.port1;
}

/** Wraps the port's `postMessage` to tell `posted` how many messages each one carried. */
function countPosts(port: MessagePort, posted: (messages: number) => void): void {
  const post = port.postMessage.bind(port);
  port.postMessage = ((data: unknown) => {
    posted(messagesOf(data).length);
    post(data);
  }) as MessagePort['postMessage'];
}

/** The page's client path, as `PageSession` wires it (its `FaultyNetwork` clean, nothing armed). */
async function pageClient(
  worker: Worker,
  counted?: FloorFollower,
  onWire?: (message: unknown) => void,
): Promise<RpcClient> {
  const network = new FaultyNetwork({ seed: 1 });
  const client = new RpcClient({
    clientInfo: { name: 'bench-schedule-floor', version: '0.1.0' },
    connect: network.connector(async () => {
      const port = connect(worker, true);
      if (counted) {
        countPosts(port, (n) => counted.posted(n));
        port.addEventListener('message', (event) => counted.heard(messagesOf(event.data).length));
      }
      return new PortTransport(port, { batched: true });
    }),
    marks: network,
    ...(onWire ? { onWire: (entry) => onWire(entry.message) } : {}),
  });
  await client.start();
  return client;
}

/** Starts the server worker (memory store) and `tasks` long `slow_compute` tasks suggesting `pollMs`. */
async function setup(tasks: number, pollMs: number): Promise<void> {
  const worker = new Worker(new URL('../src/server/worker.ts', import.meta.url), {
    type: 'module',
  });
  const ready = new Promise<void>((resolve, reject) =>
    worker.addEventListener('message', (event: MessageEvent<{ type?: string }>) => {
      if (event.data.type === 'ready') resolve();
      if (event.data.type === 'storage-error') reject(new Error('the worker has no memory store'));
    }),
  );
  worker.postMessage({ type: 'start', store: { kind: 'memory' } } satisfies StartMessage);
  await ready;
  let template: Server['template'] | undefined;
  const client = await pageClient(worker, undefined, (message) => {
    const m = message as { method?: string; params?: Record<string, unknown> };
    if (m.method === Method.tasksGet && m.params)
      template = { jsonrpc: '2.0', method: m.method, params: m.params };
  });
  const taskIds: string[] = [];
  // In chunks: a thousand calls at once would sit in the worker's job start-up together.
  for (let i = 0; i < tasks; i += 100) {
    const chunk = Array.from({ length: Math.min(100, tasks - i) }, async () => {
      const result = await client.request(
        Method.toolsCall,
        { name: 'slow_compute', arguments: { seconds: 600, pollIntervalMs: pollMs } },
        { tasks: true },
      );
      return CreateTaskResultSchema.parse(result).taskId;
    });
    taskIds.push(...(await Promise.all(chunk)));
  }
  await getTask(client, taskIds[0]!);
  client.close();
  if (!template) throw new Error('the page client sent no tasks/get to copy');
  server = { worker, taskIds, template };
}

/** The bare path: JSON-RPC on the port itself, one message per `postMessage`, or an array per burst on a batched port. */
function bareLink(follower: FloorFollower, from: Server, batched: boolean): PollLink {
  const port = connect(from.worker, batched);
  countPosts(port, (n) => follower.posted(n));
  const waiting = new Map<number, string>();
  let nextId = 1;
  port.addEventListener('message', (event: MessageEvent<unknown>) => {
    const answers = batched ? messagesOf(event.data) : [event.data];
    follower.heard(answers.length);
    for (const answer of answers) {
      const { id, result } = answer as { id: number; result?: { taskId?: unknown } };
      const taskId = waiting.get(id);
      if (taskId === undefined) continue;
      waiting.delete(id);
      follower.answered(taskId, result?.taskId === taskId ? undefined : JSON.stringify(answer));
    }
  });
  port.start();
  const request = (taskId: string) => {
    const id = nextId++;
    waiting.set(id, taskId);
    return { ...from.template, id, params: { ...from.template.params, taskId } };
  };
  return {
    send(taskIds) {
      if (batched) port.postMessage(taskIds.map(request));
      else for (const taskId of taskIds) port.postMessage(request(taskId));
    },
    close: () => port.close(),
  };
}

/** The page path: each poll a `getTask` through the page's client, its answer validated. */
function pageLink(follower: FloorFollower, client: RpcClient): PollLink {
  return {
    send(taskIds) {
      for (const taskId of taskIds)
        getTask(client, taskId).then(
          () => follower.answered(taskId),
          (error: unknown) => follower.answered(taskId, JSON.stringify(error)),
        );
    },
    close: () => client.close(),
  };
}

export interface WindowOptions {
  variant: Variant;
  pollMs: number;
  /** Unmeasured, from the start, so the schedule settles. */
  warmupMs: number;
}

/** The follower of the window under way. */
let current: FloorFollower | undefined;

/** Starts one window of one variant: a fresh follower of every task; resolves after its warm-up. */
async function startWindow({ variant, pollMs, warmupMs }: WindowOptions): Promise<void> {
  if (!server) throw new Error('set up first');
  if (current) throw new Error('a window is under way');
  const from = server;
  // The page path's client connects before the follower starts, its port counted for the follower.
  let client: RpcClient | undefined;
  const options = { pollMs, burst: variant.burst, grouped: variant.burst > 1 };
  const follower = new FloorFollower(from.taskIds, options, (f) =>
    variant.path === 'bare' ? bareLink(f, from, variant.burst > 1) : pageLink(f, client!),
  );
  if (variant.path === 'page') client = await pageClient(from.worker, follower);
  current = follower;
  follower.start();
  await new Promise((done) => setTimeout(done, warmupMs));
}

/** Measures the window under way for `ms`, then stops it; resolves with its record once every poll is answered. */
async function measureWindow(ms: number): Promise<FollowerRecord> {
  const follower = current;
  if (!follower) throw new Error('start a window first');
  follower.measure();
  await new Promise((done) => setTimeout(done, ms));
  current = undefined;
  return follower.stop();
}

declare global {
  interface Window {
    floor: {
      setup: typeof setup;
      startWindow: typeof startWindow;
      measureWindow: typeof measureWindow;
    };
  }
}

window.floor = { setup, startWindow, measureWindow };
