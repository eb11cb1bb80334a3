/**
 * elk in a Web Worker, so laying out a chart (about a second the first time)
 * never stalls the page's frames or its task actors' timers.
 *
 * Protocol: `{ id, graph }` in; `{ id, graph, elapsedMs }` or `{ id, error }` out.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api.js';
import { errorMessage } from '../../protocol/error-message.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const elk = new ELK();

// Set after `new ELK()`: in a worker, elk installs its own message handler when it starts.
scope.onmessage = async (event: MessageEvent<unknown>) => {
  const data = event.data;
  if (
    typeof data !== 'object' ||
    data === null ||
    typeof (data as { id?: unknown }).id !== 'number'
  )
    return;
  const { id, graph } = data as { id: number; graph: ElkNode };
  const started = performance.now();
  try {
    const laidOut = await elk.layout(graph);
    scope.postMessage({ id, graph: laidOut, elapsedMs: performance.now() - started });
  } catch (error) {
    scope.postMessage({ id, error: errorMessage(error) });
  }
};
