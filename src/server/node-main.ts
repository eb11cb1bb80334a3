/**
 * `npm run serve`: the playground server over Streamable HTTP, for real MCP
 * clients and the conformance suite. Flags win over the PORT / HOST
 * environment variables, which win over 127.0.0.1:3939.
 */
import { parseArgs } from 'node:util';
import { startNodeHost } from './node-host.ts';

const USAGE = `Usage: npm run serve -- [--port N] [--host H]

Serves the MCP Tasks Playground server (MCP 2026-07-28 + io.modelcontextprotocol/tasks)
over Streamable HTTP at http://H:N/mcp.

  --port N    port to listen on, 0 for any free port (env PORT, default 3939)
  --host H    address to bind (env HOST, default 127.0.0.1)
  -h, --help  show this help
`;

/** What to serve, or why not: a usage error is reported with exit code 2. */
type CliConfig = { kind: 'serve'; host: string; port: number } | { kind: 'help' } | { kind: 'error'; message: string };

function parseCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CliConfig {
  let values: { port?: string; host?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { kind: 'help' };
  const portText = values.port ?? env['PORT'] ?? '3939';
  const host = values.host ?? env['HOST'] ?? '127.0.0.1';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    return { kind: 'error', message: `Invalid port "${portText}"${values.port === undefined ? ' (from PORT)' : ''}: expected an integer from 0 to 65535` };
  }
  if (host.trim() === '') return { kind: 'error', message: 'Invalid host: empty' };
  return { kind: 'serve', host, port: Number(portText) };
}

async function main(): Promise<void> {
  const config = parseCli(process.argv.slice(2), process.env);
  if (config.kind === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (config.kind === 'error') {
    process.stderr.write(`${config.message}\n\n${USAGE}`);
    process.exit(2);
  }
  let host;
  try {
    host = await startNodeHost({ host: config.host, port: config.port });
  } catch (error) {
    process.stderr.write(`Cannot listen on ${config.host}:${config.port}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  console.log(`MCP Tasks Playground server listening on ${host.url}`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting without waiting\n`);
      process.exit(1);
    }
    stopping = true;
    console.log(`${signal}: shutting down`);
    host.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
