/**
 * The node-host part's second reference: the smallest server the official
 * SDK makes, built only from its own parts. An `McpServer` with one
 * synchronous tool (`greet`, a zod schema for its one argument), served by
 * the SDK's per-request entry (`createMcpHandler`, a fresh server per
 * request, as ours) through the SDK's own Node adapter (`toNodeHandler` from
 * `@modelcontextprotocol/node`). Nothing of ours is in it, so the bench can
 * read our `tasks/get` against what the SDK alone costs for a call.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

// Built once, as a real server would: only the server instance is per request.
const GreetArgs = z.object({ name: z.string() });

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'bench-sdk-fixture', version: '1.0.0' });
    server.registerTool(
      'greet',
      { description: 'Says hello', inputSchema: GreetArgs },
      async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
    );
    return server;
  },
  { legacy: 'reject' },
);
const serve = toNodeHandler(handler);
const http = createServer((req, res) => void serve(req, res));
http.listen(0, '127.0.0.1', () => {
  const { port } = http.address() as AddressInfo;
  console.log(`sdk fixture listening on http://127.0.0.1:${port}/mcp`);
});
// Exits normally when asked to, so a `--cpu-prof` run writes its profile.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(0));
