/**
 * The node-host part's reference: a bare node:http server that reads each
 * request's body and answers with fixed bytes. The bench first PUTs a real
 * tasks/get response, so both servers send the same bytes. Loopback, one
 * process, as the real host runs; the gap between the two is our server's cost.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let answer = Buffer.from('{}');
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (req.method === 'PUT') answer = Buffer.concat(chunks);
    res
      .writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length })
      .end(answer);
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`bare server listening on http://127.0.0.1:${port}/mcp`);
});
