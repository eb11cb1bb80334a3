/**
 * Serves a built folder (dist/, dist-bench/) on 127.0.0.1 at a free port:
 * the bench needs no dev-server features, and a port of its own cannot
 * collide with another checkout's `vite preview`.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `isolated` sends the cross-origin isolation headers, which make
 * `performance.now()` precise to 5 µs instead of 100 µs: the bench pages need
 * that to time a round trip of a tenth of a millisecond. The app is served
 * as deployed, without them.
 */
export async function serveStatic(
  folder: string,
  options: { isolated?: boolean } = {},
): Promise<StaticServer> {
  const root = resolve(folder);
  if (!existsSync(root)) throw new Error(`${folder} is missing: build it first`);
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    const isolation = options.isolated
      ? {
          'cross-origin-opener-policy': 'same-origin',
          'cross-origin-embedder-policy': 'require-corp',
        }
      : {};
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      ...isolation,
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
