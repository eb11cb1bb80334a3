/**
 * `npm run serve`: the playground server over Streamable HTTP, for real MCP
 * clients and the conformance suite. Flags win over the PORT / HOST
 * environment variables, which win over 127.0.0.1:3939. With
 * `--store postgres://…` several of these processes serve the same tasks
 * (`npm run cluster` starts them behind a balancer).
 */
import { parseArgs } from 'node:util';
import { isTerminal } from '../protocol/task.ts';
import { startNodeHost } from './node-host.ts';
import { createPlaygroundServer, type PlaygroundServer } from './playground-server.ts';
import { errorMessage } from '../protocol/error-message.ts';
import { PgTaskStore } from './pg/pg-task-store.ts';
import { parseStoreOption, type StoreChoice } from './pg/store-url.ts';
import { MemoryTaskStore } from './memory-task-store.ts';
import type { TaskStore } from './task-store.ts';

const USAGE = `Usage: npm run serve -- [--port N] [--host H] [--store S] [--node-id ID] [--report-stats MS] [--no-cors]

Serves the MCP Tasks Playground server (MCP 2026-07-28 + io.modelcontextprotocol/tasks)
over Streamable HTTP at http://H:N/mcp.

  --port N    port to listen on, 0 for any free port (env PORT, default 3939)
  --host H    address to bind (env HOST, default 127.0.0.1)
  --store S   where tasks live: memory (default; this process only) or
              postgres://user:password@host:port/database, shared by every
              node given the same URL (tables are created on first use);
              env MCP_TASKS_STORE, which keeps a password out of the process list
  --node-id ID
              this node's name in job leases (default: random), so a
              cluster's operator can tell which node runs which job
  --report-stats MS
              every MS ms, print one line "stats {json}" on stdout: this
              process's memory and the number of tasks it keeps (for
              npm run soak; run node with --expose-gc to measure after a GC)
  --no-cors   send no CORS headers, as many servers do: a browser page
              cannot read this server then, except through npm run proxy
  -h, --help  show this help
`;

/** What to serve, or why not: a usage error is reported with exit code 2. */
type CliConfig =
  | {
      kind: 'serve';
      host: string;
      port: number;
      reportStatsMs: number | undefined;
      store: Exclude<StoreChoice, { kind: 'error' }>;
      nodeId: string | undefined;
      cors: boolean;
    }
  | { kind: 'help' }
  | { kind: 'error'; message: string };

function parseCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CliConfig {
  let values: {
    port?: string;
    host?: string;
    store?: string;
    'node-id'?: string;
    'report-stats'?: string;
    'no-cors'?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        store: { type: 'string' },
        'node-id': { type: 'string' },
        'report-stats': { type: 'string' },
        'no-cors': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { kind: 'error', message: errorMessage(error) };
  }
  if (values.help) return { kind: 'help' };
  const portText = values.port ?? env['PORT'] ?? '3939';
  const host = values.host ?? env['HOST'] ?? '127.0.0.1';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    return {
      kind: 'error',
      message: `Invalid port "${portText}"${values.port === undefined ? ' (from PORT)' : ''}: expected an integer from 0 to 65535`,
    };
  }
  if (host.trim() === '') return { kind: 'error', message: 'Invalid host: empty' };
  const statsText = values['report-stats'];
  if (statsText !== undefined && (!/^\d{1,7}$/.test(statsText) || Number(statsText) < 100)) {
    return {
      kind: 'error',
      message: `Invalid --report-stats "${statsText}": expected milliseconds, at least 100`,
    };
  }
  // MCP_TASKS_STORE keeps a database password off the command line, where `ps` shows it to every user.
  const store = parseStoreOption(values.store ?? env['MCP_TASKS_STORE']);
  if (store.kind === 'error') return store;
  const nodeId = values['node-id'];
  if (nodeId !== undefined && !/^[\w.-]{1,64}$/.test(nodeId))
    return {
      kind: 'error',
      message: `Invalid --node-id "${nodeId}": letters, digits, "_", "." or "-", at most 64`,
    };
  return {
    kind: 'serve',
    host,
    port: Number(portText),
    reportStatsMs: statsText === undefined ? undefined : Number(statsText),
    store,
    nodeId,
    cors: !values['no-cors'],
  };
}

/**
 * One line on stdout, read by `npm run soak` from outside the process: no
 * endpoint serves it, so no client can ask a server for its task count.
 */
async function reportStats(server: PlaygroundServer): Promise<void> {
  // With --expose-gc, memory is measured after a full collection, so what is reported is what is kept.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const tasks = await server.store.all();
  const memory = process.memoryUsage();
  const stats = {
    at: Date.now(),
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    afterGc: gc !== undefined,
    tasks: tasks.length,
    unfinished: tasks.filter((t) => !isTerminal(t.status)).length,
    runningJobs: server.runner.runningCount,
  };
  console.log(`stats ${JSON.stringify(stats)}`);
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
  let store: TaskStore;
  if (config.store.kind === 'memory') store = new MemoryTaskStore();
  else {
    try {
      store = await PgTaskStore.open({ connectionString: config.store.url });
    } catch (error) {
      // Nothing to serve without the store: like a usage error, the operator must fix the command.
      process.stderr.write(
        `Cannot open the task store ${config.store.shown}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(2);
    }
  }
  const server = createPlaygroundServer({
    store,
    ...(config.nodeId === undefined ? {} : { runner: { holder: config.nodeId } }),
  });
  let host;
  try {
    host = await startNodeHost({
      host: config.host,
      port: config.port,
      server,
      cors: config.cors,
    });
  } catch (error) {
    process.stderr.write(
      `Cannot listen on ${config.host}:${config.port}: ${errorMessage(error)}\n`,
    );
    process.exit(1);
  }
  const where =
    (config.store.kind === 'memory' ? 'tasks in memory' : `tasks in ${config.store.shown}`) +
    (config.cors ? '' : ', no CORS');
  console.log(
    `MCP Tasks Playground server listening on ${host.url} (${where}, node ${server.runner.holder})`,
  );
  const reporter =
    config.reportStatsMs === undefined
      ? undefined
      : setInterval(() => void reportStats(server), config.reportStatsMs);

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting without waiting\n`);
      process.exit(1);
    }
    stopping = true;
    console.log(`${signal}: shutting down`);
    clearInterval(reporter);
    Promise.all([host.close(), server.close()])
      .then(() => (store instanceof PgTaskStore ? store.close() : undefined))
      .then(
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
