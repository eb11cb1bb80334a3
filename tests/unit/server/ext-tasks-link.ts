/**
 * Wires `@modelcontextprotocol/ext-tasks` (a requester nobody here wrote) to
 * our server in-process. The official SDK `Client` connects over its own
 * Streamable HTTP transport whose `fetch` is our server's HTTP entry; the
 * `rawDispatch` ext-tasks requires for task traffic (the SDK Client rejects
 * `resultType: "task"`: docs/sdk-notes.md, "Client") POSTs through that same
 * entry. Every message crosses the real SDK handler: nothing between the two
 * is mocked.
 */
import {
  Client,
  StreamableHTTPClientTransport,
  type FetchLike,
} from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  toolDeclarationFromMcpTool,
  type ApplicationInputHandler,
  type JsonRpcResponse,
  type RawClientDispatch,
  type TaskEnabledSession,
  type ToolDeclaration,
} from '@modelcontextprotocol/ext-tasks/client';
import { toJsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { PROTOCOL_VERSION } from '../../../src/protocol/constants.ts';
import { httpHeadersFor } from '../../../src/protocol/envelope.ts';
import { parseMessage } from '../../../src/protocol/jsonrpc.ts';
import {
  createPlaygroundServer,
  type PlaygroundServer,
} from '../../../src/server/playground-server.ts';

const ENDPOINT = 'http://playground.local/mcp';
const CLIENT_INFO = { name: 'ext-tasks-interop', version: '1.0.0' } as const;
/** What the client declares besides the tasks extension (which ext-tasks adds itself). */
const CLIENT_CAPABILITIES = { elicitation: { form: {} } } as const;

/** One request sent through `rawDispatch`, as it went over the wire, and its answer. */
export interface RawExchange {
  request: { jsonrpc: '2.0'; id: number; method: string; params?: Record<string, unknown> };
  /** The HTTP headers of the POST, lower-cased. */
  headers: Record<string, string>;
  response: JsonRpcResponse;
  /** `Date.now()` when ext-tasks handed the request over. */
  sentAt: number;
  /** True when a lagging read answered with an earlier server response (see `staleReadsAfterUpdate`). */
  replayed: boolean;
  /** The node a cluster's balancer sent it to (its `x-served-by` header), over real HTTP only. */
  servedBy?: string;
}

export interface ExtTasksLink {
  /** The server in this process; undefined when the link goes to an `endpoint` over HTTP. */
  server: PlaygroundServer | undefined;
  client: Client;
  session: TaskEnabledSession;
  /** Declarations built from our `tools/list` and passed to ext-tasks explicitly. */
  tools: ReadonlyMap<string, ToolDeclaration>;
  /** Everything ext-tasks sent through `rawDispatch`, in order. */
  raw: RawExchange[];
  /** Errors ext-tasks reported through `onError` (handler failures, bad responses). */
  errors: Error[];
  close(): Promise<void>;
}

export interface ExtTasksLinkOptions {
  identity?: string;
  onInputRequest?: ApplicationInputHandler['handle'];
  /**
   * Models T15's eventually consistent `tasks/update` ack, as a read replica
   * behind a load balancer would show it: after an acknowledged update, the
   * next N `tasks/get` for that task are answered with the server's own last
   * pre-update `tasks/get` response. Our server applies updates at once, and
   * ext-tasks does not poll while its input handler runs, so without this a
   * client never sees an answered key again. 0 (the default) forwards every read.
   */
  staleReadsAfterUpdate?: number;
  /**
   * A server (or a cluster's balancer) over real HTTP, e.g.
   * `http://127.0.0.1:3940/mcp`, instead of a server in this process.
   */
  endpoint?: string;
}

export async function connectExtTasks(options: ExtTasksLinkOptions = {}): Promise<ExtTasksLink> {
  const identity = options.identity ?? 'alice';
  const server = options.endpoint ? undefined : createPlaygroundServer({ sweepIntervalMs: 0 });
  const authInfo = { token: identity, clientId: identity, scopes: [] };

  // The SDK transport's network: each HTTP request goes straight into our handler, or over
  // real HTTP to `endpoint`, as the bearer token that identity is (T20).
  const endpoint = options.endpoint;
  const fetchLike: FetchLike = async (url, init) => {
    if (server) return server.http.fetch(new Request(url, init), { authInfo });
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${identity}`);
    return fetch(endpoint ?? url, { ...init, headers });
  };

  const client = new Client(CLIENT_INFO, {
    capabilities: CLIENT_CAPABILITIES,
    versionNegotiation: { mode: { pin: PROTOCOL_VERSION } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(ENDPOINT), { fetch: fetchLike }));

  // The declarations are built here and passed in (docs/sdk-notes.md, "ext-tasks"), so
  // the test does not depend on the session's own tools/list refresh.
  const listed = await client.listTools();
  const tools = new Map(listed.tools.map((tool) => [tool.name, toolDeclarationFromMcpTool(tool)]));

  const raw: RawExchange[] = [];
  const errors: Error[] = [];
  let nextId = 1;
  const lastRead = new Map<string, JsonRpcResponse>();
  const staleReadsLeft = new Map<string, number>();

  // ext-tasks hands over `{method, params}` (already framed with the _meta
  // envelope) plus transport context; the host owns ids and the HTTP POST.
  const rawDispatch: RawClientDispatch = async (request, dispatchOptions) => {
    const parsed = parseMessage(
      typeof request === 'object' && request !== null && !Array.isArray(request)
        ? { jsonrpc: '2.0', id: nextId++, ...request }
        : request,
    );
    if (parsed.kind !== 'request')
      throw new TypeError(
        `ext-tasks dispatched something that is not a request: ${JSON.stringify(request)}`,
      );
    const message = { ...parsed.message, jsonrpc: '2.0' as const, id: Number(parsed.message.id) };
    const sentAt = Date.now();
    const taskId =
      typeof message.params?.['taskId'] === 'string' ? message.params['taskId'] : undefined;
    const stale =
      taskId !== undefined &&
      message.method === 'tasks/get' &&
      (staleReadsLeft.get(taskId) ?? 0) > 0
        ? lastRead.get(taskId)
        : undefined;
    if (taskId !== undefined && stale !== undefined) {
      staleReadsLeft.set(taskId, (staleReadsLeft.get(taskId) ?? 1) - 1);
      raw.push({ request: message, headers: {}, response: stale, sentAt, replayed: true });
      return structuredClone(stale);
    }
    const headers: Record<string, string> = { ...httpHeadersFor(message) };
    // Headers ext-tasks chose (it sets Mcp-Name to the taskId on tasks/*, T19) win over our derived ones.
    for (const [name, value] of Object.entries(dispatchOptions?.context?.headers ?? {}))
      headers[name.toLowerCase()] = value;
    const response = await fetchLike(ENDPOINT, {
      method: 'POST',
      headers,
      body: JSON.stringify(message),
      ...(dispatchOptions?.signal ? { signal: dispatchOptions.signal } : {}),
    });
    const body: unknown = await response.json().catch(() => undefined);
    const answer = parseMessage(body);
    let result: JsonRpcResponse;
    if (answer.kind === 'result') {
      result = { kind: 'result', result: toJsonValue(answer.message.result) };
    } else if (answer.kind === 'error') {
      const { code, message: text, data } = answer.message.error;
      result = {
        kind: 'error',
        error: { code, message: text, ...(data === undefined ? {} : { data: toJsonValue(data) }) },
      };
    } else {
      throw new Error(`no JSON-RPC response to ${message.method} (HTTP ${response.status})`);
    }
    if (taskId !== undefined && result.kind === 'result') {
      if (message.method === 'tasks/get') lastRead.set(taskId, result);
      if (message.method === 'tasks/update')
        staleReadsLeft.set(taskId, options.staleReadsAfterUpdate ?? 0);
    }
    const servedBy = response.headers.get('x-served-by') ?? undefined;
    raw.push({
      request: message,
      headers,
      response: result,
      sentAt,
      replayed: false,
      ...(servedBy === undefined ? {} : { servedBy }),
    });
    return structuredClone(result);
  };

  const session = createTaskSessionFromClient(client, {
    endpointId: `playground:${identity}`,
    rawDispatch,
    v2RequestFraming: {
      protocolVersion: PROTOCOL_VERSION,
      clientInfo: CLIENT_INFO,
      clientCapabilities: CLIENT_CAPABILITIES,
    },
    tools: { currentTool: (name) => tools.get(name) },
    onError: (error) => errors.push(error),
    ...(options.onInputRequest ? { onInputRequest: options.onInputRequest } : {}),
  });

  return {
    server,
    client,
    session,
    tools,
    raw,
    errors,
    async close() {
      await session.close();
      await client.close();
      await server?.close();
    },
  };
}
