/**
 * The per-request `_meta` envelope (C2) and the HTTP headers a Streamable
 * HTTP client derives from a request body (T19).
 */
import { z } from 'zod';
import { META, Method, PROTOCOL_VERSION, TASKS_EXTENSION } from './constants.ts';
import type { JsonRpcRequest } from './jsonrpc.ts';

export interface ClientInfo {
  name: string;
  version: string;
}

export const ClientCapabilitiesSchema = z.looseObject({
  extensions: z.record(z.string(), z.unknown()).optional(),
  elicitation: z.record(z.string(), z.unknown()).optional(),
});
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/**
 * The capabilities a client declares on one request. Declaring the tasks
 * extension is per request (T1): a server never remembers it.
 */
export function clientCapabilities(options: { tasks: boolean }): ClientCapabilities {
  return {
    elicitation: { form: {} },
    ...(options.tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
  };
}

/** The `_meta` every request carries (C2). */
export function requestMeta(clientInfo: ClientInfo, capabilities: ClientCapabilities): Record<string, unknown> {
  return {
    [META.protocolVersion]: PROTOCOL_VERSION,
    [META.clientCapabilities]: capabilities,
    [META.clientInfo]: clientInfo,
  };
}

/** Whether an envelope's declared capabilities include the tasks extension (T1, T3, T4). */
export function declaresTasks(capabilities: unknown): boolean {
  const parsed = ClientCapabilitiesSchema.safeParse(capabilities);
  return parsed.success && parsed.data.extensions?.[TASKS_EXTENSION] !== undefined;
}

const TASK_ADDRESSED = new Set<string>([Method.tasksGet, Method.tasksUpdate, Method.tasksCancel]);

/**
 * The headers a Streamable HTTP client sends with a request: the protocol
 * version, `Mcp-Method`, and `Mcp-Name` naming the tool or, for
 * `tasks/get|update|cancel`, the taskId, so a load balancer can route
 * without reading the body (T19).
 */
export function httpHeadersFor(request: JsonRpcRequest): Record<string, string> {
  const meta = request.params?.['_meta'];
  const version =
    typeof meta === 'object' && meta !== null && typeof (meta as Record<string, unknown>)[META.protocolVersion] === 'string'
      ? String((meta as Record<string, unknown>)[META.protocolVersion])
      : PROTOCOL_VERSION;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': version,
    'mcp-method': request.method,
  };
  const params = request.params ?? {};
  const name = TASK_ADDRESSED.has(request.method) ? params['taskId'] : request.method === Method.toolsCall ? params['name'] : undefined;
  if (typeof name === 'string') headers['mcp-name'] = name;
  return headers;
}
