/**
 * The cluster's load balancer: round-robin over the nodes, no sticky
 * routing. Each answer says which node served it (`x-served-by`), for people
 * and tests. A node that refuses the connection (it died) is skipped for a
 * second and the request goes to the next one, as a balancer's passive
 * health check would.
 *
 * It sits on every request's path, so it is kept lean (the bench measures
 * its CPU per request beside the node's): a plain `node:http` forward over
 * one keep-alive agent per balancer (sockets to the nodes reused, Nagle off),
 * both bodies streamed as they come (an SSE answer event by event), the
 * headers copied once from the raw list in each direction with only the
 * hop-by-hop ones left out (`src/server/hop-by-hop.ts`). The body is not read to pick a
 * node (round-robin needs nothing from it); its chunks are only kept until
 * the node answers, so a request a dead node refused can be sent again.
 */
import {
  Agent,
  createServer,
  request,
  type ClientRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { isHopByHop, namesContentLength } from '../../src/server/hop-by-hop.ts';

export interface BalancerTarget {
  name: string;
  /** The node's origin, e.g. `http://127.0.0.1:41234`. */
  origin: string;
}

export interface Balancer {
  /** Its origin; the MCP endpoint is `${origin}/mcp`. */
  origin: string;
  /** How many requests each node was sent, by name. */
  served: Map<string, number>;
  close(): Promise<void>;
}

/** Longer bodies than this are refused here; the nodes refuse 1 MiB already. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** How long a node that refused a connection is left out. */
const DOWN_MS = 1000;
/**
 * Sockets per node. Each in-flight request holds one, and a
 * `subscriptions/listen` stream holds its own for as long as it lasts, so
 * this is sized well above any load here (the bench runs 10 connections,
 * the soak a few hundred streams at most): reached, further requests would
 * wait in the agent's queue behind the streams.
 */
const MAX_SOCKETS_PER_NODE = 1024;

/** A node as the forward needs it: its name, and the request options that never change. */
interface Node {
  name: string;
  host: string;
  port: number;
  downUntil: number;
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

export async function startBalancer(
  targets: readonly BalancerTarget[],
  options: { host?: string; port?: number } = {},
): Promise<Balancer> {
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_NODE, noDelay: true });
  const nodes: Node[] = targets.map((t) => {
    const url = new URL(t.origin);
    return { name: t.name, host: url.hostname, port: Number(url.port || 80), downUntil: 0 };
  });
  const served = new Map(targets.map((t) => [t.name, 0]));
  let next = 0;
  /** How many nodes are marked down; while none is, picking needs no clock. */
  let down = 0;

  const pick = (): Node => {
    if (down > 0) {
      const now = Date.now();
      for (const node of nodes)
        if (node.downUntil !== 0 && node.downUntil <= now) {
          node.downUntil = 0;
          down--;
        }
      for (let i = 0; i < nodes.length; i++) {
        const node = nodes[(next + i) % nodes.length]!;
        if (node.downUntil === 0) {
          next = (next + i + 1) % nodes.length;
          return node;
        }
      }
    }
    // None is down, or every node is: the next one (if it is down, its error speaks).
    const node = nodes[next]!;
    next = (next + 1) % nodes.length;
    return node;
  };

  const markDown = (node: Node): void => {
    if (node.downUntil === 0) down++;
    node.downUntil = Date.now() + DOWN_MS;
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    // The request's headers, copied once from the raw list; the node sees the client's Host.
    const raw = req.rawHeaders;
    const headers: string[] = [];
    let forwardedFor = '';
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      if (isHopByHop(name)) continue;
      if (namesContentLength(name) && Number(raw[i + 1]) > MAX_BODY_BYTES) {
        return jsonError(res, 413, -32600, 'Request body too large');
      }
      if (name.length === 15 && name.toLowerCase() === 'x-forwarded-for') {
        forwardedFor = `${raw[i + 1]}, `;
        continue;
      }
      headers.push(name, raw[i + 1]!);
    }
    headers.push('x-forwarded-for', forwardedFor + (req.socket.remoteAddress ?? ''));

    /** The body so far, kept (not copied) until the node answers, for a retry elsewhere. */
    let kept: Buffer[] | undefined = [];
    let size = 0;
    let ended = false;
    /** Over the size limit: the rest of the body goes nowhere, and the client gets a 413. */
    let refused = false;
    let tries = 0;
    let upstream: ClientRequest;

    const send = (): void => {
      tries++;
      const node = pick();
      served.set(node.name, served.get(node.name)! + 1);
      upstream = request({
        agent,
        host: node.host,
        port: node.port,
        method: req.method,
        path: req.url,
        headers,
      });
      upstream.on('response', (answer) => {
        kept = undefined;
        respond(node, answer);
      });
      upstream.on('error', (error: Error & { code?: string }) => {
        if (refused || res.writableEnded) return; // Answered already.
        // Refused: the request never reached that node, so another may serve it.
        if (error.code === 'ECONNREFUSED' && kept !== undefined) {
          markDown(node);
          if (tries < nodes.length) {
            send();
            for (const chunk of kept) upstream.write(chunk);
            if (ended) upstream.end();
            return;
          }
        }
        // Answered in part, or the client is gone: all that is left is to cut the answer.
        if (res.headersSent || res.destroyed) return void res.destroy();
        jsonError(
          res,
          502,
          -32603,
          `Bad gateway: ${node.name} failed (${error.code ?? error.message})`,
        );
      });
    };

    const respond = (node: Node, answer: IncomingMessage): void => {
      const rawAnswer = answer.rawHeaders;
      const answerHeaders: string[] = [];
      let framed = false;
      for (let i = 0; i < rawAnswer.length; i += 2) {
        const name = rawAnswer[i]!;
        // Transfer-Encoding too: this side frames the body itself, as its own client needs.
        if (isHopByHop(name) || (name.length === 17 && name.toLowerCase() === 'transfer-encoding'))
          continue;
        if (namesContentLength(name)) framed = true;
        answerHeaders.push(name, rawAnswer[i + 1]!);
      }
      answerHeaders.push('x-served-by', node.name);
      res.writeHead(answer.statusCode ?? 502, answerHeaders);
      // A stream (SSE) with no length: its headers go now, not with its first event.
      if (!framed) res.flushHeaders();
      answer.on('data', (chunk: Buffer) => {
        if (!res.write(chunk)) {
          answer.pause();
          res.once('drain', () => answer.resume());
        }
      });
      answer.on('end', () => res.end());
      // Cut off before its end (the node died mid-stream): so is the client's answer.
      answer.on('close', () => {
        if (!answer.complete) res.destroy();
      });
    };

    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        refused = true;
        kept = undefined;
        upstream.destroy();
        if (res.headersSent) return void res.destroy();
        // The connection closes once this is out: the rest of the body is not worth reading.
        res.setHeader('connection', 'close');
        jsonError(res, 413, -32600, 'Request body too large');
        return;
      }
      kept?.push(chunk);
      upstream.write(chunk);
    });
    req.on('end', () => {
      ended = true;
      if (!refused) upstream.end();
    });
    // The client went away before its answer ended: so does the node's request.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    send();
  };

  const http = createServer({ noDelay: true }, handle);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    origin: `http://${options.host ?? '127.0.0.1'}:${port}`,
    served,
    close: async () => {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}
