/**
 * The cluster's balancer (`scripts/cluster/balancer.ts`) in front of plain
 * `node:http` targets: round-robin with `x-served-by`, the request's and the
 * answer's bytes and headers passed as they came (hop-by-hop ones left out),
 * connections to the nodes kept alive, an SSE answer streamed event by event
 * and closed both ways, a node that refuses connections skipped (the body
 * sent again to the next one), every node down a 502 in words, a body over
 * the limit a 413.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBalancer, type Balancer } from '../../../scripts/cluster/balancer.ts';
import { PROXIED_TASKS_GET_HEADERS } from '../helpers/proxied-request.ts';

/** Odd spacing and non-ASCII text: any re-encoding on the way would change these bytes. */
const REQUEST_BODY =
  '{"jsonrpc":"2.0", "id":7,"method":"tasks/get","params":{"taskId":"t-\u00e9"}}';
const answerBody = (name: string): string =>
  `{ "jsonrpc":"2.0","id":7,"result":{"node":"${name}","note":"\u00fc"}}`;

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Target {
  name: string;
  server: Server;
  origin: string;
  received: Received[];
  /** TCP connections the balancer opened to it. */
  connections: number;
  /** The open SSE answers, to end or watch. */
  streams: ServerResponse[];
}

async function startTarget(name: string): Promise<Target> {
  const target: Target = {
    name,
    server: createServer(),
    origin: '',
    received: [],
    connections: 0,
    streams: [],
  };
  target.server.on('connection', () => target.connections++);
  target.server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      target.received.push({ url: req.url ?? '', headers: req.headers, body });
      if (req.url?.endsWith('?stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
        res.write('event: message\ndata: {"first":true}\n\n');
        target.streams.push(res);
        return;
      }
      const answer = Buffer.from(answerBody(name));
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': answer.length,
        'mcp-protocol-version': '2026-07-28',
        'x-answer': 'kept',
      });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
  target.origin = `http://127.0.0.1:${(target.server.address() as AddressInfo).port}`;
  return target;
}

const stopTarget = (target: Target): Promise<void> => {
  target.server.closeAllConnections();
  return new Promise((resolve) => target.server.close(() => resolve()));
};

const requestHeaders = PROXIED_TASKS_GET_HEADERS;

const post = (url: string, body = REQUEST_BODY): Promise<Response> =>
  fetch(url, { method: 'POST', headers: requestHeaders, body });

let targets: Target[];
let balancer: Balancer;

beforeAll(async () => {
  targets = await Promise.all(['node-1', 'node-2', 'node-3'].map(startTarget));
  balancer = await startBalancer(targets.map((t) => ({ name: t.name, origin: t.origin })));
});

afterAll(async () => {
  await balancer.close();
  await Promise.all(targets.map(stopTarget));
});

describe('the cluster balancer', () => {
  it('T19: sends consecutive requests to consecutive nodes, each answer naming its node (x-served-by)', async () => {
    const servedBy: string[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await post(`${balancer.origin}/mcp`);
      const text = await response.text();
      servedBy.push(response.headers.get('x-served-by') ?? '');
      expect(text).toBe(answerBody(servedBy[i]!));
    }
    const first = servedBy.indexOf('node-1');
    const order = [...servedBy.slice(first), ...servedBy.slice(0, first)];
    expect(order).toEqual(['node-1', 'node-2', 'node-3', 'node-1', 'node-2', 'node-3']);
  });

  it('T19: the request and the answer pass as they came: bytes, path and query, Mcp-* headers, Host', async () => {
    for (const t of targets) t.received.length = 0;
    const response = await post(`${balancer.origin}/mcp?x=1`);
    const bytes = Buffer.from(await response.arrayBuffer());
    const node = targets.find((t) => t.name === response.headers.get('x-served-by'))!;
    expect(bytes.toString('utf8')).toBe(answerBody(node.name));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(response.headers.get('mcp-protocol-version')).toBe('2026-07-28');
    expect(response.headers.get('x-answer')).toBe('kept');

    const [received] = node.received;
    expect(received!.url).toBe('/mcp?x=1');
    expect(received!.body).toBe(REQUEST_BODY);
    for (const [name, value] of Object.entries(requestHeaders))
      expect(received!.headers[name]).toBe(value);
    // The node sees the client's Host and address; the connection's own headers stay behind.
    expect(received!.headers.host).toBe(new URL(balancer.origin).host);
    expect(received!.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(received!.headers['connection']).toBe('keep-alive');
    expect(received!.headers['keep-alive']).toBeUndefined();
  });

  it('keeps its connections to the nodes alive: 30 requests, at most one connection per node', async () => {
    const before = targets.map((t) => t.connections);
    for (let i = 0; i < 30; i++) await (await post(`${balancer.origin}/mcp`)).text();
    const opened = targets.map((t, i) => t.connections - before[i]!);
    for (const count of opened) expect(count).toBeLessThanOrEqual(1);
  });

  it('T18: an SSE answer streams through event by event, and a client that leaves closes it at the node', async () => {
    const aborted = new AbortController();
    const response = await fetch(`${balancer.origin}/mcp?stream`, {
      method: 'POST',
      headers: requestHeaders,
      body: REQUEST_BODY,
      signal: aborted.signal,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const node = targets.find((t) => t.name === response.headers.get('x-served-by'))!;
    const stream = node.streams.at(-1)!;
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('\n\n')) seen += decoder.decode((await reader.read()).value);
    expect(seen).toBe('event: message\ndata: {"first":true}\n\n');
    stream.write('event: message\ndata: {"second":true}\n\n');
    while (!seen.includes('second')) seen += decoder.decode((await reader.read()).value);

    let closedAtNode = false;
    stream.on('close', () => (closedAtNode = true));
    aborted.abort();
    await expect.poll(() => closedAtNode).toBe(true);
  });

  it('a node that dies mid-stream cuts the client\u2019s answer too', async () => {
    const response = await post(`${balancer.origin}/mcp?stream`);
    const node = targets.find((t) => t.name === response.headers.get('x-served-by'))!;
    const reader = response.body!.getReader();
    await reader.read();
    node.streams.at(-1)!.destroy();
    await expect(
      (async () => {
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read());
      })(),
    ).rejects.toThrow();
  });

  it('bad input: a body over 2 MiB is refused with a 413 in JSON-RPC words', async () => {
    const response = await post(`${balancer.origin}/mcp`, 'x'.repeat(2 * 1024 * 1024 + 1));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /too large/,
    );
  });
  it('bad input: a streamed (chunked) body that grows past 2 MiB is cut off at the node and answered 413', async () => {
    for (const t of targets) t.received.length = 0;
    const piece = 'x'.repeat(512 * 1024);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new TextEncoder().encode(piece));
        controller.close();
      },
    });
    const response = await fetch(`${balancer.origin}/mcp`, {
      method: 'POST',
      headers: requestHeaders,
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(response.headers.get('x-served-by')).toBeNull();
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32600);
    // No node got a whole request out of it.
    for (const t of targets) expect(t.received).toHaveLength(0);
  });
});

describe('the cluster balancer with nodes down', () => {
  it('T19: a node that refuses connections is skipped; the request and its body go to the next node', async () => {
    const nodes = await Promise.all(['up-1', 'down-2', 'up-3'].map(startTarget));
    const down = nodes[1]!;
    await stopTarget(down);
    const balanced = await startBalancer(nodes.map((t) => ({ name: t.name, origin: t.origin })));
    try {
      const servedBy: string[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await post(`${balanced.origin}/mcp`);
        expect(response.status).toBe(200);
        servedBy.push(response.headers.get('x-served-by')!);
        expect(await response.text()).toBe(answerBody(servedBy[i]!));
      }
      expect(servedBy).toEqual(['up-1', 'up-3', 'up-1', 'up-3']);
      // The refused request was sent again whole: each answered one has its body.
      for (const node of [nodes[0]!, nodes[2]!])
        for (const received of node.received) expect(received.body).toBe(REQUEST_BODY);
    } finally {
      await balanced.close();
      await Promise.all([stopTarget(nodes[0]!), stopTarget(nodes[2]!)]);
    }
  });

  it('bad input: every node down gives a 502 whose JSON-RPC error names the node', async () => {
    const gone = await startTarget('gone-1');
    await stopTarget(gone);
    const balanced = await startBalancer([{ name: gone.name, origin: gone.origin }]);
    try {
      const response = await post(`${balanced.origin}/mcp`);
      expect(response.status).toBe(502);
      const body = (await response.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32603);
      expect(body.error.message).toContain('gone-1');
      expect(body.error.message).toContain('ECONNREFUSED');
    } finally {
      await balanced.close();
    }
  });
});
