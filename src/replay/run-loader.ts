/**
 * Opening a run: read the bytes (a picked or dropped file, or `?run=<url>`)
 * with progress, check them off the main thread (`run-parse.worker.ts`),
 * then build the index in chunks, yielding between them, so a run of
 * 100,000 messages opens without freezing the page. Every failure is one
 * sentence naming what is wrong: not JSON, a newer version, which field, a
 * fetch refused by CORS or answered 404.
 */
import type { RunFile, RunFileVerdict } from '../record/run-file.ts';
import { parseRunFile } from '../record/run-file.ts';
import { RunIndex } from './run-index.ts';
import { RunAssembler, type TransferMessage } from './run-transfer.ts';
import { replayEvents } from './run-source.ts';

export type LoadStage = 'reading' | 'checking' | 'indexing';

/** How far loading got: `fraction` 0..1 where it can be told. */
export interface LoadProgress {
  readonly stage: LoadStage;
  readonly fraction: number | undefined;
}

export type LoadResult =
  | { readonly ok: true; readonly run: RunFile; readonly index: RunIndex }
  | { readonly ok: false; readonly error: string };

/** Events indexed between two looks at the clock. */
const INDEX_CHUNK = 100;
/** Indexing yields to the page once it has worked this long: each task stays well under 50 ms. */
const INDEX_BUDGET_MS = 12;

/** Reads a byte stream to text, telling how much of `total` bytes came (when known). */
export async function readText(
  stream: ReadableStream<Uint8Array>,
  total: number | undefined,
  onProgress: (progress: LoadProgress) => void,
): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    parts.push(decoder.decode(value, { stream: true }));
    onProgress({ stage: 'reading', fraction: total ? Math.min(1, received / total) : undefined });
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/**
 * `parseRunFile` in a Web Worker (in the page's thread where no worker can start). The checked
 * run comes back in slices (`run-transfer.ts`), each a short task for the page, with progress.
 */
export function checkOffThread(
  text: string,
  onProgress: (progress: LoadProgress) => void = () => {},
): Promise<RunFileVerdict> {
  let worker: Worker;
  try {
    worker = new Worker(new URL('./run-parse.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return Promise.resolve(parseRunFile(text));
  }
  const assembler = new RunAssembler();
  return new Promise((resolve) => {
    worker.onmessage = (event: MessageEvent<TransferMessage>) => {
      const verdict = assembler.accept(event.data);
      if (verdict === undefined) {
        onProgress({ stage: 'checking', fraction: assembler.fraction });
        return;
      }
      worker.terminate();
      resolve(verdict);
    };
    worker.onerror = () => {
      worker.terminate();
      resolve(parseRunFile(text));
    };
    worker.postMessage(text);
  });
}

/** Lets the page draw and take input between two chunks of work. */
const yieldToPage = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** A run's text checked, then indexed in chunks. */
export async function loadRunText(
  text: string,
  onProgress: (progress: LoadProgress) => void,
  check: (
    text: string,
    onProgress: (progress: LoadProgress) => void,
  ) => Promise<RunFileVerdict> = checkOffThread,
): Promise<LoadResult> {
  onProgress({ stage: 'checking', fraction: undefined });
  const verdict = await check(text, onProgress);
  if (!verdict.ok) return verdict;
  const index = await RunIndex.build(replayEvents(verdict.run), {
    chunk: INDEX_CHUNK,
    budget: { ms: INDEX_BUDGET_MS, now: () => performance.now() },
    pause: yieldToPage,
    onProgress: (fraction) => onProgress({ stage: 'indexing', fraction }),
  });
  return { ok: true, run: verdict.run, index };
}

/** A picked or dropped file. */
export async function loadRunFile(
  file: File,
  onProgress: (progress: LoadProgress) => void,
): Promise<LoadResult> {
  let text: string;
  try {
    text = await readText(file.stream(), file.size, onProgress);
  } catch (error) {
    return { ok: false, error: `the file could not be read (${String(error)})` };
  }
  return loadRunText(text, onProgress);
}

/** `?run=<url>`: fetched (relative to the page), then loaded. */
export async function loadRunUrl(
  address: string,
  base: string,
  onProgress: (progress: LoadProgress) => void,
  fetcher: typeof fetch = fetch,
): Promise<LoadResult> {
  let url: URL;
  try {
    url = new URL(address, base);
  } catch {
    return { ok: false, error: `"${address}" is not an address` };
  }
  let response: Response;
  try {
    response = await fetcher(url);
  } catch {
    return {
      ok: false,
      error: `${url.href} could not be fetched: nothing answered, or its server does not let this page read it (CORS: it must send Access-Control-Allow-Origin)`,
    };
  }
  if (!response.ok) {
    return {
      ok: false,
      error: `${url.href} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}, not a run file`,
    };
  }
  // A wrong address on a site that answers every path with its page (a single-page app).
  if (response.headers.get('content-type')?.includes('text/html')) {
    return {
      ok: false,
      error: `${url.href} answered a web page (text/html), not a run file: is the address right?`,
    };
  }
  const length = Number(response.headers.get('content-length'));
  let text: string;
  try {
    text = response.body
      ? await readText(response.body, length > 0 ? length : undefined, onProgress)
      : await response.text();
  } catch (error) {
    return { ok: false, error: `${url.href} broke off while loading (${String(error)})` };
  }
  return loadRunText(text, onProgress);
}
