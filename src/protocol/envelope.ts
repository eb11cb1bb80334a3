/**
 * The per-request `_meta` envelope (C2) and the HTTP headers a Streamable
 * HTTP client derives from a request body (T19).
 */
import { ClientCapabilitiesSchema } from '@modelcontextprotocol/core';
import type { z } from 'zod';
import { META, Method, PROTOCOL_VERSION, TASKS_EXTENSION } from './constants.ts';
import type { JsonRpcRequest } from './jsonrpc.ts';

export interface ClientInfo {
  name: string;
  version: string;
}

/** What a client may declare (C2): the SDK's schema, so a declaration means here what it means to the SDK. */
export { ClientCapabilitiesSchema };
export type ClientCapabilities = z.input<typeof ClientCapabilitiesSchema>;

/**
 * Only the `extensions` member is read, as the SDK's envelope check reads it:
 * each extension's settings must be a JSON object. The rest of the
 * capabilities is the SDK's to validate (its 2026 envelope schema drops the
 * 2025 `tasks` member that the exported schema still checks), so a
 * declaration is never refused here for a member the SDK would ignore.
 */
const DeclaredExtensions = ClientCapabilitiesSchema.pick({ extensions: true });

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
export function requestMeta(
  clientInfo: ClientInfo,
  capabilities: ClientCapabilities,
): Record<string, unknown> {
  return {
    [META.protocolVersion]: PROTOCOL_VERSION,
    [META.clientCapabilities]: capabilities,
    [META.clientInfo]: clientInfo,
  };
}

export type RequestMeta = Readonly<Record<string, unknown>>;

/**
 * The `_meta` one client sends on every request, with or without the tasks
 * extension, to be built once and shared by its requests: deeply frozen
 * (copied first, so the caller's `clientInfo` stays its own), because a
 * message is never changed once sent, and one that were would change every
 * request after it.
 */
export function sharedRequestMeta(
  clientInfo: ClientInfo,
  options: { tasks: boolean },
): RequestMeta {
  return deepFrozen(requestMeta({ ...clientInfo }, clientCapabilities(options)));
}

function deepFrozen<T extends object>(value: T): Readonly<T> {
  for (const member of Object.values(value))
    if (typeof member === 'object' && member !== null) deepFrozen(member);
  return Object.freeze(value);
}

/** Whether an envelope's declared capabilities include the tasks extension (T1, T3, T4). */
export function declaresTasks(capabilities: unknown): boolean {
  const parsed = DeclaredExtensions.safeParse(capabilities);
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
    typeof meta === 'object' &&
    meta !== null &&
    typeof (meta as Record<string, unknown>)[META.protocolVersion] === 'string'
      ? String((meta as Record<string, unknown>)[META.protocolVersion])
      : PROTOCOL_VERSION;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': version,
    'mcp-method': request.method,
  };
  const params = request.params ?? {};
  const name = TASK_ADDRESSED.has(request.method)
    ? params['taskId']
    : request.method === Method.toolsCall
      ? params['name']
      : undefined;
  if (typeof name === 'string') headers['mcp-name'] = headerSafe(name);
  return headers;
}

/** Visible ASCII, no surrounding spaces: a header value that means exactly what it says. */
const PLAIN_HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const BASE64_SENTINEL = /^=\?base64\?.*\?=$/s;

/** Whether `value` can travel as an HTTP header value unchanged. */
export function isPlainHeaderValue(value: string): boolean {
  return PLAIN_HEADER_VALUE.test(value) && !BASE64_SENTINEL.test(value);
}

/**
 * A tool name or taskId as an `Mcp-Name` value. Header values are bytes, and
 * a name may hold any Unicode (or look like the encoding itself), so such a
 * value travels as `=?base64?<UTF-8 in Base64>?=`, the form SEP-2243 defines
 * and the SDK decodes before comparing it with the body.
 */
export function headerSafe(value: string): string {
  if (isPlainHeaderValue(value)) return value;
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}
