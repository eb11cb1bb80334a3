/**
 * An in-memory pair for server tests: the real port host serving a real
 * playground server over a MessageChannel, and the page's RpcClient on the
 * other end. Nothing is mocked between them.
 */
import { PortTransport } from '../../../src/net/port-transport.ts';
import { RpcClient, type WireEntry } from '../../../src/client/rpc-client.ts';
import {
  createPlaygroundServer,
  type PlaygroundServer,
  type PlaygroundServerOptions,
} from '../../../src/server/playground-server.ts';
import { servePort } from '../../../src/server/port-host.ts';
import type { JsonRpcNotification } from '../../../src/protocol/jsonrpc.ts';

export interface Harness {
  server: PlaygroundServer;
  client: RpcClient;
  wire: WireEntry[];
  notifications: JsonRpcNotification[];
  /** A second client connected as another identity. */
  connect(identity: string): Promise<RpcClient>;
  /** Sends any value on a fresh link and resolves with the first message back. */
  raw(message: unknown, identity?: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function createHarness(
  options: PlaygroundServerOptions = {},
  identity = 'alice',
): Promise<Harness> {
  const server = createPlaygroundServer({ sweepIntervalMs: 0, ...options });
  const clients: RpcClient[] = [];
  const wire: WireEntry[] = [];
  const notifications: JsonRpcNotification[] = [];

  const connectAs = async (who: string, record = false): Promise<RpcClient> => {
    const client = new RpcClient({
      clientInfo: { name: 'test-client', version: '1.0.0' },
      connect: async () => {
        const channel = new MessageChannel();
        servePort(server, channel.port1, who);
        return new PortTransport(channel.port2);
      },
      ...(record
        ? {
            onWire: (entry: WireEntry) => wire.push(entry),
            onNotification: (n: JsonRpcNotification) => notifications.push(n),
          }
        : {}),
      backoff: { initialMs: 5, maxMs: 20 },
    });
    await client.start();
    clients.push(client);
    return client;
  };

  const client = await connectAs(identity, true);
  return {
    server,
    client,
    wire,
    notifications,
    connect: (who) => connectAs(who),
    raw: (message, who = identity) =>
      new Promise((resolve) => {
        const channel = new MessageChannel();
        const host = servePort(server, channel.port1, who);
        channel.port2.addEventListener('message', (event) => {
          host.close();
          channel.port2.close();
          resolve(event.data as Record<string, unknown>);
        });
        channel.port2.start();
        channel.port2.postMessage(message);
      }),
    async close() {
      for (const c of clients) c.close();
      await server.close();
    },
  };
}

/** The `_meta` envelope of a 2026-07-28 request, with or without the tasks extension. */
export function envelope(tasks: boolean, version = '2026-07-28'): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': tasks
      ? { extensions: { 'io.modelcontextprotocol/tasks': {} } }
      : {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
  };
}

/** Polls tasks/get until `done` holds, or throws after `timeoutMs`. */
export async function pollUntil(
  client: RpcClient,
  taskId: string,
  done: (task: Record<string, unknown>) => boolean,
  timeoutMs = 8000,
): Promise<Record<string, unknown>> {
  const start = Date.now();
  for (;;) {
    const task = await client.request('tasks/get', { taskId }, { tasks: true });
    if (done(task)) return task;
    if (Date.now() - start > timeoutMs)
      throw new Error(`task ${taskId} stuck at ${JSON.stringify(task)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts a `confirm_delete` task and waits until it asks for input: a task
 * that stays put (input_required) for hostile messages to aim at. Its taskId.
 */
export async function taskWaitingForInput(client: RpcClient): Promise<string> {
  const handle = await client.request(
    'tools/call',
    { name: 'confirm_delete', arguments: { filename: 'keep-me.txt' } },
    { tasks: true },
  );
  const taskId = String(handle['taskId']);
  await pollUntil(client, taskId, (task) => task['status'] === 'input_required');
  return taskId;
}

export const terminal = (task: Record<string, unknown>): boolean =>
  ['completed', 'failed', 'cancelled'].includes(String(task['status']));
