/**
 * Web Worker entry: one playground server per worker, serving every port
 * the page hands over. The page owns the worker (src/net/server-worker.ts)
 * and says first, with `start`, where the server keeps its tasks: in this
 * worker's memory (lost when it is killed) or in IndexedDB, where a fresh
 * worker finds them and resumes their jobs. `hold-jobs` holds or releases
 * the clock its jobs sleep on; `world-clock` makes every timer of the server
 * (job steps, leases, the TTL sweep) follow the page's world clock. Beside the MCP ports, it tells the page what
 * its store holds (the x-ray, src/server/store-xray.ts).
 */
/// <reference lib="webworker" />
import { WorldClock } from '../clock/world-clock.ts';
import {
  WorkerControlSchema,
  type StartMessage,
  type WorkerEvent,
} from '../protocol/worker-control.ts';
import { IdbTaskStore } from './idb/idb-task-store.ts';
import { MemoryTaskStore } from './memory-task-store.ts';
import { createPlaygroundServer, type PlaygroundServer } from './playground-server.ts';
import { servePort } from './port-host.ts';
import { XrayTaskStore } from './store-xray.ts';
import type { TaskStore } from './task-store.ts';

declare const self: DedicatedWorkerGlobalScope;

let server: Promise<PlaygroundServer> | undefined;
/** Every timer and timestamp of this worker's server; it follows the page's world clock (`world-clock`). */
const world = new WorldClock();

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const control = WorkerControlSchema.safeParse(event.data);
  if (!control.success) {
    console.error(
      '[worker] ignored a control message that is not a valid start, connect, hold-jobs or world-clock',
      event.data,
    );
    return;
  }
  if (control.data.type === 'start') {
    if (server)
      console.error('[worker] ignored a second start: a worker keeps the store it started with');
    else server = boot(control.data);
    return;
  }
  if (control.data.type === 'world-clock') {
    // Before start too: the server is built on this clock, in whatever state it is.
    world.sync(control.data);
    return;
  }
  if (control.data.type === 'hold-jobs') {
    const { held } = control.data;
    if (!server) console.error('[worker] ignored hold-jobs before start');
    else void server.then((s) => (held ? s.clock.hold() : s.clock.release()));
    return;
  }
  const port = event.ports[0];
  if (!port || !server) {
    console.error('[worker] ignored a connect', !port ? 'without a port' : 'before start');
    return;
  }
  const { identity, batched } = control.data;
  // The port buffers what the client sends until it is served.
  void server.then((s) => servePort(s, port, identity, { batched: batched === true }));
});

async function boot(start: StartMessage): Promise<PlaygroundServer> {
  const opened = await openStore(start);
  // The x-ray: what the store holds, told beside the MCP wire; first what it holds already.
  const store = new XrayTaskStore(opened, tell);
  await store.tellAll();
  tell({ type: 'ready', store: opened instanceof IdbTaskStore ? 'indexeddb' : 'memory' });
  // A named node leases as `node 3/ab12cd34`: readable in a take-over, unique per worker all the same.
  const holder = start.node ? `${start.node}/${crypto.randomUUID().slice(0, 8)}` : undefined;
  return createPlaygroundServer({
    store,
    timers: world,
    ...(holder ? { runner: { holder } } : {}),
    ...(start.earlyHandleMs ? { earlyHandleMs: start.earlyHandleMs } : {}),
  });
}

async function openStore(start: StartMessage): Promise<TaskStore> {
  if (start.store.kind === 'memory') return new MemoryTaskStore();
  try {
    return await IdbTaskStore.open(start.store.database);
  } catch (error) {
    // Still a working server, and the page says plainly that tasks will not survive it.
    tell({
      type: 'storage-error',
      requested: 'indexeddb',
      message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    return new MemoryTaskStore();
  }
}

function tell(event: WorkerEvent): void {
  self.postMessage(event);
}
