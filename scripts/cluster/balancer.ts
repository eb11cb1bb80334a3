/**
 * The cluster's load balancer: round-robin over the nodes, no sticky
 * routing, through `http-proxy-3` (a maintained proxy library; no proxy loop
 * of our own). Each answer says which node served it (`x-served-by`), for
 * people and tests. A node that refuses the connection (it died) is skipped
 * for a second and the request goes to the next one: the body is read first,
 * so it can be sent again, as a balancer's passive health check would.
 */
import { createServer, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createProxyServer } from 'http-proxy-3';

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

export async function startBalancer(
  targets: readonly BalancerTarget[],
  options: { host?: string; port?: number } = {},
): Promise<Balancer> {
  const agent = new Agent({ keepAlive: true });
  const proxy = createProxyServer({ agent, xfwd: true });
  const downUntil = new Map<string, number>();
  const served = new Map(targets.map((t) => [t.name, 0]));
  let next = 0;

  const pick = (): BalancerTarget => {
    const now = Date.now();
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(next + i) % targets.length]!;
      if ((downUntil.get(target.name) ?? 0) <= now) {
        next = (next + i + 1) % targets.length;
        return target;
      }
    }
    // Every node is down: try the next anyway, and let its error speak.
    const target = targets[next % targets.length]!;
    next = (next + 1) % targets.length;
    return target;
  };

  const forward = (
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    tries: number,
  ): void => {
    const target = pick();
    served.set(target.name, (served.get(target.name) ?? 0) + 1);
    res.setHeader('x-served-by', target.name);
    proxy.web(
      req,
      res,
      { target: target.origin, buffer: Readable.from([body]) },
      (error: Error & { code?: string }) => {
        // Refused: the request never reached that node, so another may serve it.
        if (error.code === 'ECONNREFUSED' && !res.headersSent) {
          downUntil.set(target.name, Date.now() + DOWN_MS);
          if (tries < targets.length) return forward(req, res, body, tries + 1);
        }
        if (res.headersSent) return void res.destroy();
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: {
              code: -32603,
              message: `Bad gateway: ${target.name} failed (${error.code ?? error.message})`,
            },
          }),
        );
      },
    );
  };

  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32600, message: 'Request body too large' },
          }),
        );
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!res.headersSent) forward(req, res, Buffer.concat(chunks), 1);
    });
  });
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
      proxy.close();
      agent.destroy();
      await closed;
    },
  };
}
