/**
 * The grader over HTTP: the playground's own Node host (`startNodeHost`)
 * serving the grader's tools on a loopback port of its own, and in front of
 * it the address a client is given, which records every request and its
 * answer (exchange.ts) and passes both through unchanged, headers and
 * bytes: CORS, the SDK's checks, streams, all are the Node host's. The same
 * address serves the live report card at `/report` (HTML, or JSON for
 * `Accept: application/json`) and `/report.json`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { MCP_PATH, bearerToken, startNodeHost } from '../server/node-host.ts';
import { HOP_BY_HOP } from '../server/hop-by-hop.ts';
import { streamBody, webHeaders } from '../server/node-http-replies.ts';
import { createPlaygroundServer } from '../server/playground-server.ts';
import type { RecordedExchange } from './exchange.ts';
import { GRADER_TOOLS } from './grade-tools.ts';
import { reportCard, type ReportCard } from './report-card.ts';
import { reportHtml } from './report-render.ts';

export interface GraderOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
}

export interface Grader {
  /** The MCP endpoint a client is pointed at, e.g. `http://127.0.0.1:3950/mcp`. */
  url: string;
  /** The live report card's page. */
  reportUrl: string;
  /** Every exchange recorded so far, in arrival order. */
  readonly exchanges: readonly RecordedExchange[];
  /** The card for what was recorded so far. */
  report(): ReportCard;
  close(): Promise<void>;
}

/**
 * Never passed through: the connection-level headers, and the framing ones
 * (the body is read whole and sent again, so its length and encoding are the
 * new request's own; `fetch` sets `Host`).
 */
const NOT_PASSED = new Set([
  ...HOP_BY_HOP,
  'transfer-encoding',
  'content-length',
  'host',
  'expect',
]);

/** A request body is read whole before it is passed on; past this the client is cut off (the host's limit is 1 MiB). */
const MAX_PASSED_BYTES = 2 * 1024 * 1024;

export async function startGrader(options: GraderOptions): Promise<Grader> {
  const server = createPlaygroundServer({ tools: GRADER_TOOLS });
  const inner = await startNodeHost({ host: '127.0.0.1', port: 0, server });
  const innerUrl = new URL(inner.url);
  const exchanges: RecordedExchange[] = [];
  const connections = new WeakMap<Socket, number>();
  let connectionCount = 0;

  const front = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && (path === '/report' || path === '/report.json' || path === '/')) {
      if (path === '/') {
        res.writeHead(302, { location: '/report' });
        res.end();
        return;
      }
      const card = reportCard(exchanges, Date.now());
      const json = path === '/report.json' || /application\/json/i.test(req.headers.accept ?? '');
      const body = json ? `${JSON.stringify(card, null, 2)}\n` : reportHtml(card);
      res.writeHead(200, {
        'content-type': json ? 'application/json' : 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        vary: 'Accept',
      });
      res.end(body);
      return;
    }
    let connection = connections.get(req.socket);
    if (connection === undefined) connections.set(req.socket, (connection = ++connectionCount));
    pass(req, res, connection).catch((error: unknown) => {
      console.error('[grader] could not pass a request on', error);
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
  });

  async function pass(
    req: IncomingMessage,
    res: ServerResponse,
    connection: number,
  ): Promise<void> {
    const bytes = await readAll(req);
    if (bytes === undefined) return void req.socket.destroy();
    const isMcp = (req.url ?? '').split('?')[0] === MCP_PATH && req.method === 'POST';
    let record: RecordedExchange | undefined;
    if (isMcp) {
      const token = bearerToken(single(req.headers.authorization));
      const mcpMethod = single(req.headers['mcp-method']);
      const mcpName = single(req.headers['mcp-name']);
      record = {
        seq: exchanges.length + 1,
        at: Date.now(),
        connection,
        body: parsedJson(bytes),
        ...(typeof token === 'string' ? { bearer: token } : {}),
        ...(mcpMethod === undefined ? {} : { mcpMethod }),
        ...(mcpName === undefined ? {} : { mcpName }),
      };
      exchanges.push(record);
    }
    const headers = webHeaders(req, NOT_PASSED);
    const aborted = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborted.abort();
    });
    const response = await fetch(new URL(req.url ?? '/', innerUrl), {
      method: req.method ?? 'GET',
      headers,
      signal: aborted.signal,
      ...(bytes.length > 0 && req.method !== 'GET' && req.method !== 'HEAD'
        ? { body: new Uint8Array(bytes) }
        : {}),
    });
    res.statusCode = response.status;
    response.headers.forEach((value, name) => {
      if (!NOT_PASSED.has(name)) res.setHeader(name, value);
    });
    const streamed = /text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    if (!streamed || !response.body) {
      const answer = Buffer.from(await response.arrayBuffer());
      if (record)
        record.answer = { at: Date.now(), httpStatus: response.status, body: parsedJson(answer) };
      res.setHeader('content-length', answer.length);
      res.end(answer);
      return;
    }
    if (record) record.answer = { at: Date.now(), httpStatus: response.status, body: undefined };
    await streamBody(response.body, res);
  }

  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(options.port, options.host, () => {
      front.off('error', reject);
      resolve();
    });
  });
  const { address, port } = front.address() as AddressInfo;
  const origin = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}${MCP_PATH}`,
    reportUrl: `${origin}/report`,
    exchanges,
    report: () => reportCard(exchanges, Date.now()),
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => front.close(() => resolve()));
        front.closeAllConnections();
        await inner.close();
        await server.close();
        await stopped;
      })()),
  };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function parsedJson(bytes: Buffer): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The whole body, or undefined when it is larger than anything worth passing on. */
function readAll(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PASSED_BYTES) {
        req.removeAllListeners('data');
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
