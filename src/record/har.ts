/**
 * The wire as a HAR 1.2 log, so tools people already use (Chromium's
 * network panel, HAR viewers) open it: one entry per JSON-RPC request the
 * page sent, with the response that answered it, timed from the recorded
 * times. With a remote server the entries hold the real HTTP the wire log
 * knows (status, content type, the request's `Mcp-*` headers, `HttpFacts`);
 * with the built-in server the wire is a MessagePort to a Web Worker, and
 * the log's comment says so (the status is then 200 for an answer, 0 for
 * none). Messages from the server outside any request (notifications,
 * pushes) and lost copies are in the run file only.
 *
 * HAR 1.2 allows a log with no pages, but viewers group entries by page
 * (Chromium's network panel, HAR viewers show a page's title above its
 * requests), so the run is one page, named after its scenario when it had
 * one, and every entry references it (`pageref`).
 */
import type { RunFile } from './run-file.ts';
import type { RunWireEntry } from './run-events.ts';

interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    queryString: [];
    postData: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text?: string };
    redirectURL: '';
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** The run's page ({@link RUN_PAGE_ID}). */
  pageref: string;
  comment?: string;
}

/** A HAR 1.2 page: the run. The page timings are -1: the run is no page load. */
export interface HarPage {
  startedDateTime: string;
  id: string;
  title: string;
  pageTimings: { onContentLoad: -1; onLoad: -1 };
  comment: string;
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    pages: [HarPage];
    entries: HarEntry[];
    comment: string;
  };
}

/** The id of the run's one page, which every entry references. */
export const RUN_PAGE_ID = 'run';

/** The run as the HAR's one page: when it began, and its scenario's title if it had one. */
function pageOf(run: RunFile, remote: string | undefined): HarPage {
  const where = remote ?? 'the built-in server';
  return {
    startedDateTime: run.recordedAt,
    id: RUN_PAGE_ID,
    title: run.scenario
      ? `${run.scenario.title} (scenario run, MCP Tasks Playground)`
      : `MCP Tasks Playground run, ${run.recordedAt}`,
    pageTimings: { onContentLoad: -1, onLoad: -1 },
    comment: `Every MCP request the page sent to ${where} while recording.`,
  };
}

/** The URL the built-in server's entries name: it has none, being a worker behind a MessagePort. */
export const WORKER_URL = 'http://built-in-worker.invalid/mcp';

function idOf(message: unknown): string | number | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const id = (message as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

function methodOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const method = (message as { method?: unknown }).method;
  return typeof method === 'string' ? method : undefined;
}

const bytes = (text: string): number => new TextEncoder().encode(text).length;

/** The run's wire as HAR 1.2. */
export function harOf(run: RunFile): Har {
  const remote = run.setup.server.kind === 'remote' ? run.setup.server.url : undefined;
  const entries: HarEntry[] = [];
  /** Requests sent and not yet answered, by connection and id -> their entry. */
  const open = new Map<string, { entry: HarEntry; sentAt: number }>();
  const wire: RunWireEntry[] = run.events.flatMap((e) =>
    e.kind === 'wire' ? [e.entry] : e.kind === 'wire-restored' ? e.entries : [],
  );
  for (const item of wire) {
    const id = idOf(item.message);
    const key = `${item.connection ?? ''}:${String(id)}`;
    const method = methodOf(item.message);
    if (item.direction === 'out') {
      if (item.net?.lost && item.net.duplicate) continue;
      const text = JSON.stringify(item.message);
      const entry: HarEntry = {
        startedDateTime: new Date(item.at).toISOString(),
        time: 0,
        request: {
          method: 'POST',
          url: remote ?? WORKER_URL,
          httpVersion: remote ? 'HTTP/1.1' : 'MessagePort',
          cookies: [],
          headers: [{ name: 'Content-Type', value: 'application/json' }],
          queryString: [],
          postData: { mimeType: 'application/json', text },
          headersSize: -1,
          bodySize: bytes(text),
        },
        response: {
          status: 0,
          statusText: id === undefined ? '' : 'no answer recorded',
          httpVersion: remote ? 'HTTP/1.1' : 'MessagePort',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: 'application/json' },
          redirectURL: '',
          headersSize: -1,
          bodySize: 0,
        },
        cache: {},
        timings: { send: 0, wait: 0, receive: 0 },
        pageref: RUN_PAGE_ID,
        comment: [
          method ?? 'response',
          item.connection ? `connection ${item.connection}` : undefined,
          item.node ? `node ${item.node}` : undefined,
          item.reissueOf !== undefined ? `re-issue of ${item.reissueOf}` : undefined,
          item.net?.lost ? `lost in the network (${item.net.lost})` : undefined,
        ]
          .filter((part) => part !== undefined)
          .join('; '),
      };
      entries.push(entry);
      if (id !== undefined && method !== undefined) open.set(key, { entry, sentAt: item.at });
      else if (method !== undefined) {
        // A notification: over HTTP it is answered 202 with no body; the worker answers nothing.
        entry.response.status = remote ? 202 : 0;
        entry.response.statusText = remote ? 'Accepted' : '';
      }
      continue;
    }
    if (item.net?.lost || id === undefined || method !== undefined) continue;
    const sent = open.get(key);
    if (!sent) continue;
    open.delete(key);
    const text = JSON.stringify(item.message);
    const http = item.http;
    const wait = Math.max(0, http?.ms ?? item.at - sent.sentAt);
    const { entry } = sent;
    entry.time = Math.max(0, item.at - sent.sentAt);
    entry.timings = { send: 0, wait, receive: Math.max(0, entry.time - wait) };
    entry.response.status = http?.status ?? 200;
    entry.response.statusText = http?.statusText ?? 'OK';
    const mimeType = http?.contentType || 'application/json';
    entry.response.headers = [{ name: 'Content-Type', value: mimeType }];
    entry.response.content = { size: bytes(text), mimeType, text };
    entry.response.bodySize = bytes(text);
    if (http)
      entry.request.headers.push(
        ...Object.entries(http.requestHeaders).map(([name, value]) => ({ name, value })),
      );
  }
  return {
    log: {
      version: '1.2',
      creator: { name: 'MCP Tasks Playground', version: run.app.version },
      pages: [pageOf(run, remote)],
      entries,
      comment: remote
        ? `MCP over Streamable HTTP to ${remote}, recorded ${run.recordedAt}. Messages the server sent outside any request are in the run file only.`
        : `The built-in server runs in a Web Worker: the wire is a MessagePort, not HTTP, so URLs, statuses and HTTP versions are stand-ins (200 for an answer, 0 for none). Recorded ${run.recordedAt}. Messages the server sent outside any request are in the run file only.`,
    },
  };
}
