/**
 * A bare MCP requester over HTTP for the cluster tests: each request with
 * the headers a Streamable HTTP client derives from it (T19) and the tasks
 * extension declared, as one bearer identity (T20). Reads which node served
 * it from the balancer's `x-served-by` header.
 */
import { httpHeadersFor, requestMeta } from '../../src/protocol/envelope.ts';
import type { JsonRpcRequest } from '../../src/protocol/jsonrpc.ts';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const CLIENT = { name: 'cluster-test', version: '1.0.0' };

export interface McpReply {
  status: number;
  /** The node the balancer sent it to (undefined when talking to a node directly). */
  servedBy: string | undefined;
  result: Record<string, unknown> | undefined;
  error: { code: number; message: string } | undefined;
}

let nextId = 1;

export async function mcp(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  as = 'cluster-tester',
): Promise<McpReply> {
  const message: JsonRpcRequest = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: { ...params, _meta: requestMeta(CLIENT, TASKS) },
  };
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...httpHeadersFor(message), authorization: `Bearer ${as}` },
    body: JSON.stringify(message),
  });
  const body = (await response.json()) as Record<string, unknown>;
  return {
    status: response.status,
    servedBy: response.headers.get('x-served-by') ?? undefined,
    result: body['result'] as Record<string, unknown> | undefined,
    error: body['error'] as McpReply['error'],
  };
}

/** Starts a tool as a task and returns its id; fails on anything else. */
export async function startTask(
  url: string,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const reply = await mcp(url, 'tools/call', { name, arguments: args });
  if (reply.result?.['resultType'] !== 'task')
    throw new Error(`${name} did not start a task: ${JSON.stringify(reply)}`);
  return String(reply.result['taskId']);
}
