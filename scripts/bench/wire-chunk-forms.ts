/**
 * What one wire chunk costs the page's main thread to hand to IndexedDB, by
 * its form (src/store/README.md, "Wire log"): a batch of `tasks/get`
 * requests and answers as objects (the v2 form), each message as its own
 * JSON text, the batch as one JSON text (the form kept now). Timed until
 * `add` returns, which is when Chromium has cloned the value; the median of
 * ten batches after two warm-ups, each form in turn.
 *
 *   npx tsx scripts/bench/wire-chunk-forms.ts [messages per batch]
 */
import { launchChromium } from './chromium.ts';

const perBatch = Number(process.argv[2] ?? 1450);
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  // IndexedDB needs an origin: a page served by the test's own route.
  await page.route('http://wire-chunks.invalid/', (route) =>
    route.fulfill({ body: '<!doctype html><title>wire chunks</title>', contentType: 'text/html' }),
  );
  // tsx names the functions below through a helper of its own, which the page lacks.
  await page.addInitScript('globalThis.__name = (fn) => fn;');
  await page.goto('http://wire-chunks.invalid/');
  const medians = await page.evaluate(async (count) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('wire-chunk-forms', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('chunks', { keyPath: 'end' });
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const taskId = (i: number) => `task-${i % 1000}-0f1e2d3c4b5a69788796a5b4c3d2e1f0`;
    const entry = (i: number) =>
      i % 2
        ? {
            at: i,
            direction: 'out',
            message: {
              jsonrpc: '2.0',
              id: i,
              method: 'tasks/get',
              params: {
                taskId: taskId(i),
                _meta: {
                  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                  'io.modelcontextprotocol/clientCapabilities': {
                    elicitation: { form: {} },
                    extensions: { 'io.modelcontextprotocol/tasks': {} },
                  },
                  'io.modelcontextprotocol/clientInfo': { name: 'page', version: '0.1.0' },
                },
              },
            },
          }
        : {
            at: i,
            direction: 'in',
            message: {
              jsonrpc: '2.0',
              id: i,
              result: {
                resultType: 'complete',
                taskId: taskId(i),
                status: 'working',
                statusMessage: 'computing: 3 of 60 s',
                createdAt: '2026-07-28T10:00:00.000Z',
                lastUpdatedAt: '2026-07-28T10:00:03.000Z',
                ttlMs: 600000,
                pollIntervalMs: 250,
              },
            },
          };
    type Entry = ReturnType<typeof entry>;
    const forms: Record<string, (entries: Entry[]) => object> = {
      'the batch as objects': (entries) => ({ entries }),
      'each message as JSON text': (entries) => ({
        entries: entries.map((e) => ({ ...e, message: JSON.stringify(e.message) })),
      }),
      'the batch as one JSON text': (entries) => ({ json: JSON.stringify(entries) }),
    };
    const times: Record<string, number[]> = {};
    let end = 0;
    for (let round = 0; round < 12; round++)
      for (const [name, form] of Object.entries(forms)) {
        const entries = Array.from({ length: count }, (_, i) => entry(end + i));
        end += count;
        const started = performance.now();
        const tx = db.transaction('chunks', 'readwrite');
        tx.objectStore('chunks').add({ end, ...form(entries) });
        const took = performance.now() - started;
        await new Promise((resolve) => (tx.oncomplete = resolve));
        if (round >= 2) (times[name] ??= []).push(took);
      }
    const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1] ?? NaN;
    return Object.entries(times).map(([name, values]) => [name, median(values)] as const);
  }, perBatch);
  console.log(`one batch of ${perBatch} tasks/get messages, until add() returns (median of 10):`);
  for (const [name, ms] of medians) console.log(`  ${ms.toFixed(2).padStart(7)} ms  ${name}`);
} finally {
  await browser.close();
}
