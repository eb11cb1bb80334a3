/**
 * Where elk runs. In the page: in its own Web Worker (`elk.worker.ts`), one
 * for the page, started with the first chart. In Node (tests, scripts): in
 * the same thread, loaded on first use.
 */
import type { ElkNode } from 'elkjs/lib/elk-api.js';

export interface LayoutEngine {
  /** Lays `graph` out; `elapsedMs` is elk's own time. */
  layout(graph: ElkNode): Promise<{ graph: ElkNode; elapsedMs: number }>;
}

/** elk in this thread (elk.bundled is ~1.4 MB: imported on first use). */
export function inThreadEngine(): LayoutEngine {
  const elk = import('elkjs/lib/elk.bundled.js').then(({ default: Elk }) => new Elk());
  return {
    async layout(graph) {
      const engine = await elk;
      const started = performance.now();
      const laidOut = await engine.layout(graph);
      return { graph: laidOut, elapsedMs: performance.now() - started };
    },
  };
}

type Reply = { id: number; graph: ElkNode; elapsedMs: number } | { id: number; error: string };

function isReply(data: unknown): data is Reply {
  if (typeof data !== 'object' || data === null) return false;
  const reply = data as Record<string, unknown>;
  if (typeof reply['id'] !== 'number') return false;
  return (
    typeof reply['error'] === 'string' ||
    (typeof reply['graph'] === 'object' &&
      reply['graph'] !== null &&
      typeof reply['elapsedMs'] === 'number')
  );
}

/** The performance mark each layout in the worker leaves, its `detail.elapsedMs` elk's own time. */
export const LAYOUT_MARK = 'statechart-layout';

/** elk in a Web Worker, started on the first layout. */
export function workerEngine(): LayoutEngine {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<
    number,
    {
      resolve: (value: { graph: ElkNode; elapsedMs: number }) => void;
      reject: (error: Error) => void;
    }
  >();
  const start = (): Worker => {
    // The one form Vite bundles as a separate module worker (STYLE.md).
    const started = new Worker(new URL('./elk.worker.ts', import.meta.url), { type: 'module' });
    started.onmessage = (event: MessageEvent<unknown>) => {
      if (!isReply(event.data)) return;
      const reply = event.data;
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if ('error' in reply) waiting?.reject(new Error(reply.error));
      else {
        // A User Timing mark, so a measuring script reads elk's time the way it reads any other.
        performance.mark(LAYOUT_MARK, { detail: { elapsedMs: reply.elapsedMs } });
        waiting?.resolve({ graph: reply.graph, elapsedMs: reply.elapsedMs });
      }
    };
    started.onerror = (event) => {
      for (const waiting of pending.values())
        waiting.reject(new Error(`layout worker failed: ${event.message}`));
      pending.clear();
    };
    return started;
  };
  return {
    layout(graph) {
      worker ??= start();
      const id = nextId++;
      const sent = worker;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        sent.postMessage({ id, graph });
      });
    },
  };
}

let shared: LayoutEngine | undefined;

/** The page's one layout worker, shared by every chart and started by the first. */
export function pageEngine(): LayoutEngine {
  return (shared ??= workerEngine());
}
