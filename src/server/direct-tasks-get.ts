/**
 * `tasks/get` answered without building the SDK's per-request server: the
 * hot path of every client that polls (T10, T12). A poll through the SDK's
 * entry costs a web `Request` and `Response`, a server with its handlers,
 * a transport, and the same JSON-RPC and envelope checks run two or three
 * times over; this answers the same request with the same checks run once.
 *
 * It takes only the requests it can prove the SDK would dispatch to our
 * `tasks/get` handler, and gives every other one back (`undefined`) for the
 * SDK to answer, rejections included:
 * - the SDK's own ladder, `classifyInboundRequest`: JSON-RPC shape, the
 *   `_meta` envelope against the SDK's 2026-07-28 schema (C2), and the
 *   header/body cross-checks of `MCP-Protocol-Version` and `Mcp-Method`
 *   (-32020); it must route the request as modern, at this server's revision;
 * - the standard headers the SDK requires after it (T19): `MCP-Protocol-Version`,
 *   `Mcp-Method` and `Mcp-Name` all present and equal to the body's, with a
 *   taskId in plain header characters (no Base64 sentinel to decode);
 * - params holding `taskId` (a string) and `_meta` only, so nothing the SDK
 *   would lift or parse (`inputResponses`, `requestState`) is skipped.
 * Then it runs what our handler runs (create-server.ts: the caller from the
 * bearer identity and the envelope, `TaskService.getTask`) and encodes the
 * result as the SDK's 2026-07-28 codec does for `tasks/get`: `resultType`
 * stamped, `serverInfo` in `_meta` (C4, C6); a fault is a JSON-RPC error
 * under the HTTP status the SDK gives a handler's error (200, and 400 for
 * -32021). The SDK keeps no result schema for `tasks/*`, so no result check
 * is skipped. `tests/unit/server/direct-tasks-get.test.ts` sends the same
 * requests, valid and hostile, down both paths and requires equal answers.
 */
import { classifyInboundRequest, SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import { ErrorCode, Method, PROTOCOL_VERSION } from '../protocol/constants.ts';
import type { JsonRpcMessage } from '../protocol/jsonrpc.ts';
import { asProtocolError, callerFrom, SERVER_INFO } from './create-server.ts';
import type { TaskService } from './task-service.ts';

/** What the HTTP host read from one POST: three headers, the parsed body and the caller. */
export interface DirectRequest {
  protocolVersionHeader: string | undefined;
  mcpMethodHeader: string | undefined;
  mcpNameHeader: string | undefined;
  body: unknown;
  /** The bearer token (T20); undefined: anonymous. */
  identity: string | undefined;
}

/** An answer to send as `application/json`. */
export interface DirectAnswer {
  status: number;
  message: JsonRpcMessage;
}

/** A taskId the `Mcp-Name` header carries as it is (no encoding), as ours always do (identity.ts). */
const PLAIN_TASK_ID = /^[A-Za-z0-9_-]{1,200}$/;

/** The request's taskId when this path may answer it; undefined: the SDK's entry answers. */
function directTaskId(request: DirectRequest): string | undefined {
  const body = request.body;
  if (!isPlainObject(body) || body['method'] !== Method.tasksGet) return undefined;
  const params = body['params'];
  if (!isPlainObject(params)) return undefined;
  const taskId = params['taskId'];
  if (typeof taskId !== 'string' || !PLAIN_TASK_ID.test(taskId)) return undefined;
  for (const key of Object.keys(params)) if (key !== 'taskId' && key !== '_meta') return undefined;
  if (
    request.protocolVersionHeader !== PROTOCOL_VERSION ||
    request.mcpMethodHeader !== Method.tasksGet ||
    request.mcpNameHeader !== taskId
  )
    return undefined;
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: request.protocolVersionHeader,
    mcpMethodHeader: request.mcpMethodHeader,
    mcpNameHeader: request.mcpNameHeader,
    body,
  });
  if (route.kind !== 'modern' || route.messageKind !== 'request') return undefined;
  if (route.classification.revision !== PROTOCOL_VERSION) return undefined;
  return taskId;
}

/**
 * Answers a `tasks/get` the SDK would hand to our handler, exactly as it
 * would; any other request is left to the SDK (`undefined`).
 */
export async function answerTasksGet(
  service: TaskService,
  request: DirectRequest,
): Promise<DirectAnswer | undefined> {
  const taskId = directTaskId(request);
  if (taskId === undefined) return undefined;
  const body = request.body as { id: string | number; params: { _meta: Record<string, unknown> } };
  const id = body.id;
  try {
    // The SDK lifts the envelope's keys out of `_meta` for the handler; the caller reads one of them.
    const caller = await callerFrom(request.identity, body.params._meta);
    const task = await service.getTask(caller, taskId);
    // The SDK's codec: resultType first stamped at the end, then serverInfo into `_meta`.
    const result: Record<string, unknown> = { ...task, resultType: 'complete' };
    const resultMeta = result['_meta'];
    if (resultMeta === undefined) result['_meta'] = { [SERVER_INFO_META_KEY]: SERVER_INFO };
    else if (isPlainObject(resultMeta) && resultMeta[SERVER_INFO_META_KEY] === undefined)
      result['_meta'] = { ...resultMeta, [SERVER_INFO_META_KEY]: SERVER_INFO };
    return { status: 200, message: { result, jsonrpc: '2.0', id } as JsonRpcMessage };
  } catch (thrown) {
    const error = asProtocolError(thrown) as { code?: unknown; message?: unknown; data?: unknown };
    const thrownCode =
      typeof error.code === 'number' && Number.isSafeInteger(error.code)
        ? error.code
        : ErrorCode.InternalError;
    // The 2026-07-28 codec's one renumbering: -32002 (resource not found) leaves as -32602.
    const code = thrownCode === -32002 ? ErrorCode.InvalidParams : thrownCode;
    return {
      // The one handler error the SDK answers with an HTTP error status (its "ladder" map).
      status: code === ErrorCode.MissingRequiredClientCapability ? 400 : 200,
      message: {
        jsonrpc: '2.0',
        id,
        error: {
          code,
          message: typeof error.message === 'string' ? error.message : 'Internal error',
          ...(error.data !== undefined ? { data: error.data } : {}),
        },
      } as JsonRpcMessage,
    };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
