/**
 * Bench page (never in the app's bundle): a tasks/get through the page's real
 * client stack and the real server worker, against a bare postMessage echo
 * to a worker. `scripts/bench/worker-roundtrip.ts` drives it through
 * `window.bench`; every figure is measured here, in the page's clock.
 *
 * Targets:
 * - `echo`: the same JSON-RPC request posted on a MessagePort to a worker
 *   that posts it back (structured clone both ways, two thread hops);
 * - `memory`, `indexeddb`: RpcClient over PortTransport to the server worker
 *   started with that store, a `tasks/get` validated as the page does;
 * - `memory-net`: the page's own session (src/session: `PageSession` over
 *   the worker, its FaultyNetwork with a clean link, its journal on a
 *   memory page store), which is how the page is wired (every message
 *   passes a timer in the network and is kept by the journal).
 */
import { RpcClient } from '../src/client/rpc-client.ts';
import { getTask } from '../src/client/task-lookup.ts';
import { ServerWorker } from '../src/net/server-worker.ts';
import type { Connector } from '../src/net/transport.ts';
import { Method } from '../src/protocol/constants.ts';
import { CreateTaskResultSchema } from '../src/protocol/task.ts';
import type { WorkerEvent } from '../src/protocol/worker-control.ts';
import { PageSession } from '../src/session/page-session.ts';
import { WorkerEndpoint } from '../src/session/server-endpoint.ts';
import { MemoryPageStore } from '../src/store/memory-page-store.ts';

export type Target = 'echo' | 'memory' | 'indexeddb' | 'memory-net';

/** One target, ready: `call` makes one round trip. */
interface Session {
  call(): Promise<unknown>;
  close(): Promise<void>;
}

/** The tasks/get request the client last sent, reused verbatim as the echo's payload. */
let sampleRequest: Record<string, unknown> = {
  jsonrpc: '2.0',
  id: 0,
  method: Method.tasksGet,
  params: { taskId: 'none' },
};

async function open(target: Target): Promise<Session> {
  if (target === 'echo') return openEcho();
  return target === 'memory-net' ? openPageSession() : openServer(target);
}

/** Keeps the last tasks/get the client sent, as the echo's payload. */
function keepSample({ direction, message }: { direction: string; message: unknown }): void {
  if (
    direction === 'out' &&
    typeof message === 'object' &&
    message !== null &&
    'method' in message &&
    message.method === Method.tasksGet
  ) {
    sampleRequest = { ...message };
  }
}

/** A long task, so every tasks/get reads a live, `working` record. */
async function longTask(
  request: (method: string, params: Record<string, unknown>) => Promise<unknown>,
): Promise<string> {
  const created = CreateTaskResultSchema.parse(
    await request(Method.toolsCall, { name: 'slow_compute', arguments: { seconds: 600 } }),
  );
  return created.taskId;
}

/** The page's session, wired as the page wires it (the memory store; no IndexedDB journal to clean up). */
async function openPageSession(): Promise<Session> {
  const session = new PageSession({
    endpoint: new WorkerEndpoint(),
    pageStore: new MemoryPageStore(),
    seed: 1,
    preferences: undefined,
    clientName: 'bench-worker-roundtrip',
  });
  session.on('wire', keepSample);
  await session.start();
  const taskId = await longTask((method, params) =>
    session.request(method, params, { declare: true }),
  );
  return {
    call: () => getTask(session.client, taskId),
    close: () => session.close(),
  };
}

function openEcho(): Session {
  const worker = new Worker(new URL('./echo.worker.ts', import.meta.url), { type: 'module' });
  const channel = new MessageChannel();
  worker.postMessage({ type: 'connect' }, [channel.port2]);
  const waiting = new Map<number, () => void>();
  channel.port1.addEventListener('message', (event: MessageEvent<{ id: number }>) => {
    waiting.get(event.data.id)?.();
    waiting.delete(event.data.id);
  });
  channel.port1.start();
  let nextId = 1;
  return {
    call: () =>
      new Promise<void>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        channel.port1.postMessage({ ...sampleRequest, id });
      }),
    close: async () => {
      channel.port1.close();
      worker.terminate();
    },
  };
}

async function openServer(target: 'memory' | 'indexeddb'): Promise<Session> {
  const database = `bench-roundtrip-${crypto.randomUUID()}`;
  type StoreEvent = Extract<WorkerEvent, { type: 'ready' | 'storage-error' }>;
  let ready!: (event: StoreEvent) => void;
  const started = new Promise<StoreEvent>((resolve) => (ready = resolve));
  // The x-ray's task-stored / task-deleted events say nothing about the store opening.
  const server = new ServerWorker({
    onEvent: (event) => {
      if (event.type === 'ready' || event.type === 'storage-error') ready(event);
    },
  });
  server.start({
    type: 'start',
    store: target === 'indexeddb' ? { kind: 'indexeddb', database } : { kind: 'memory' },
  });
  const event = await started;
  if (event.type !== 'ready')
    throw new Error(`server worker could not use ${target}: ${event.message}`);
  const direct: Connector = () => server.connect('bench');
  const client = new RpcClient({
    clientInfo: { name: 'bench-worker-roundtrip', version: '0.1.0' },
    connect: direct,
    onWire: keepSample,
  });
  await client.start();
  const taskId = await longTask((method, params) =>
    client.request(method, params, { tasks: true }),
  );
  return {
    call: () => getTask(client, taskId),
    close: async () => {
      client.close();
      server.kill('bench done');
      if (target === 'indexeddb')
        await new Promise((done) => (indexedDB.deleteDatabase(database).onsuccess = done));
    },
  };
}

export interface RunOptions {
  targets: readonly Target[];
  /** Sequential round trips per target, measured, after `warmup` unmeasured ones. */
  count: number;
  warmup: number;
  /** Throughput time per target, ms, with `inFlight` requests kept outstanding. */
  throughputMs: number;
  inFlight: number;
  /** The work is cut into this many blocks, taken in turn by every target, so a noisy moment on a shared machine hits all alike. */
  blocks: number;
}

export interface RunResult {
  /** Each round trip's duration, ms, by target. */
  trips: Record<string, number[]>;
  /** Round trips completed per second, by target. */
  rates: Record<string, number>;
}

/** Requests completed in `ms` keeping `inFlight` outstanding. */
async function saturate(session: Session, ms: number, inFlight: number): Promise<number> {
  let done = 0;
  const end = performance.now() + ms;
  const lane = async () => {
    while (performance.now() < end) {
      await session.call();
      done++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return done;
}

async function run(options: RunOptions): Promise<RunResult> {
  const sessions = new Map<Target, Session>();
  try {
    for (const target of options.targets) sessions.set(target, await open(target));
    for (const session of sessions.values())
      for (let i = 0; i < options.warmup; i++) await session.call();
    const trips: Record<string, number[]> = {};
    const done: Record<string, number> = {};
    const busy: Record<string, number> = {};
    const perBlock = Math.ceil(options.count / options.blocks);
    for (let block = 0; block < options.blocks; block++) {
      for (const [target, session] of sessions) {
        const times = (trips[target] ??= []);
        for (let i = 0; i < perBlock; i++) {
          const started = performance.now();
          await session.call();
          times.push(performance.now() - started);
        }
        const started = performance.now();
        done[target] =
          (done[target] ?? 0) +
          (await saturate(session, options.throughputMs / options.blocks, options.inFlight));
        busy[target] = (busy[target] ?? 0) + (performance.now() - started);
      }
    }
    const rates = Object.fromEntries(
      Object.keys(done).map((target) => [target, done[target]! / (busy[target]! / 1000)]),
    );
    return { trips, rates };
  } finally {
    for (const session of sessions.values()) await session.close();
  }
}

/** The one target `prepare` opened, for a profiled run outside the measured ones. */
let prepared: Session | undefined;

/** Opens `target` alone and warms it up, so a profiler can attach to its worker before `saturateFor`. */
async function prepare(target: Target, warmup: number): Promise<void> {
  prepared = await open(target);
  for (let i = 0; i < warmup; i++) await prepared.call();
}

/** Keeps `inFlight` requests outstanding on the prepared target for `ms`; returns how many completed. */
async function saturateFor(ms: number, inFlight: number): Promise<number> {
  if (!prepared) throw new Error('prepare a target first');
  return saturate(prepared, ms, inFlight);
}

declare global {
  interface Window {
    bench: { run: typeof run; prepare: typeof prepare; saturateFor: typeof saturateFor };
  }
}

window.bench = { run, prepare, saturateFor };
