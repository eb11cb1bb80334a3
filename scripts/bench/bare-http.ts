/**
 * The node-host part's reference: a bare node:http server answering every
 * request with the same bytes (a real tasks/get response, passed in as
 * base64 argv[2]) after reading the body. Loopback, one process, as the
 * real host runs; the gap between the two is our server's cost.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = Buffer.from(process.argv[2] ?? '', 'base64');
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body));
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`bare server listening on http://127.0.0.1:${port}/mcp`);
});
