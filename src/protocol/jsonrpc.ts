/**
 * JSON-RPC 2.0 framing: the one wire format between every client and server
 * in the playground. Incoming data is parsed with these schemas; nothing is cast.
 *
 * The request id and the error object are the SDK's own schemas. The four
 * message schemas are ours, because the SDK's (`JSONRPCMessageSchema` and
 * its members in `@modelcontextprotocol/core`) classify differently from what
 * a host that must answer every request, and never a notification, needs:
 * - they are `.strict()`: a notification carrying one extra member would be
 *   classed invalid and answered with an error, and JSON-RPC never answers a
 *   notification. Ours ignore unknown members;
 * - the error response's `id` is optional, not nullable: the `id: null` that
 *   JSON-RPC prescribes when a request's id could not be read is refused;
 * - `params._meta` is typed (`progressToken`, the 2025 related-task key), so
 *   a malformed `_meta` makes the whole message invalid; ours leave `_meta`
 *   to the envelope check, which answers it -32602 (C2).
 * See docs/sdk-notes.md, "Schemas from @modelcontextprotocol/core".
 */
import { JSONRPCErrorResponseSchema, RequestIdSchema } from '@modelcontextprotocol/core';
import { z } from 'zod';

export { RequestIdSchema };
export type RequestId = z.infer<typeof RequestIdSchema>;

/** A JSON-RPC error object, as carried by an error response or a `failed` task (T10): the SDK's. */
export const RpcErrorSchema = JSONRPCErrorResponseSchema.shape.error;
export type RpcError = z.infer<typeof RpcErrorSchema>;

const Params = z.record(z.string(), z.unknown());

export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema,
  method: z.string(),
  params: Params.optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

export const JsonRpcNotificationSchema = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string(),
  params: Params.optional(),
});
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;

export const JsonRpcResultSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema,
  result: z.record(z.string(), z.unknown()),
});
export type JsonRpcResult = z.infer<typeof JsonRpcResultSchema>;

export const JsonRpcErrorResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema.nullable(),
  error: RpcErrorSchema,
});
export type JsonRpcErrorResponse = z.infer<typeof JsonRpcErrorResponseSchema>;

export type JsonRpcMessage =
  JsonRpcRequest | JsonRpcNotification | JsonRpcResult | JsonRpcErrorResponse;

/** A message as classified on arrival. */
export type ParsedMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'result'; message: JsonRpcResult }
  | { kind: 'error'; message: JsonRpcErrorResponse }
  | { kind: 'invalid'; reason: string };

/**
 * Verdicts on message objects already classified. On the page one message
 * object passes several layers (the simulated network's tracker, the
 * client, the wire log's annotator), and none changes it once it is sent or
 * received (a port hands each receiver its own clone), so its envelope is
 * validated once, by whichever layer sees it first, and the others get the
 * same verdict. Held weakly: a message forgotten by everyone is dropped.
 */
const verdicts = new WeakMap<object, ParsedMessage>();

/**
 * Classifies an unknown value as one JSON-RPC message, or says why it is not
 * one. The same object is validated once (see `verdicts`): a message must not
 * be changed after it was first classified.
 */
export function parseMessage(value: unknown): ParsedMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', reason: 'not a JSON object' };
  }
  const known = verdicts.get(value);
  if (known) return known;
  const verdict = classify(value);
  verdicts.set(value, verdict);
  return verdict;
}

/**
 * A request this side built, its verdict recorded as it is made: its type
 * (an integer id, a string method, an object of params) is exactly what
 * `JsonRpcRequestSchema` accepts, so the layers it passes on its way out
 * (the network's tracker, the wire annotator) need not validate it again.
 * Only for messages built here: whatever arrives is still validated, and the
 * server validates this one when it arrives there.
 */
export function builtRequest(message: JsonRpcRequest & { id: number }): JsonRpcRequest {
  verdicts.set(message, { kind: 'request', message });
  return message;
}

function classify(value: object): ParsedMessage {
  if ('method' in value) {
    if ('id' in value) {
      const r = JsonRpcRequestSchema.safeParse(value);
      return r.success
        ? { kind: 'request', message: r.data }
        : { kind: 'invalid', reason: z.prettifyError(r.error) };
    }
    const n = JsonRpcNotificationSchema.safeParse(value);
    return n.success
      ? { kind: 'notification', message: n.data }
      : { kind: 'invalid', reason: z.prettifyError(n.error) };
  }
  if ('error' in value) {
    const e = JsonRpcErrorResponseSchema.safeParse(value);
    return e.success
      ? { kind: 'error', message: e.data }
      : { kind: 'invalid', reason: z.prettifyError(e.error) };
  }
  const known = wellFormedResult(value);
  if (known) return { kind: 'result', message: known };
  const res = JsonRpcResultSchema.safeParse(value);
  return res.success
    ? { kind: 'result', message: res.data }
    : { kind: 'invalid', reason: z.prettifyError(res.error) };
}

/**
 * A result response exactly as {@link JsonRpcResultSchema} accepts it, kept
 * as the object it is: the schema's parse would copy the `result` member
 * key by key, only for whoever reads it to validate it again in full (a
 * `tasks/get` answer as a DetailedTask, getTask), so each answer was walked
 * twice and copied twice. Anything this does not accept goes to the schema,
 * which refuses it in its own words. The checks are the schema's: `2.0`, an
 * id the SDK's `RequestIdSchema` takes (a string or a safe integer), a
 * `result` zod takes for a record (`isPlainObject`).
 */
function wellFormedResult(value: object): JsonRpcResult | undefined {
  const { jsonrpc, id, result } = value as { jsonrpc?: unknown; id?: unknown; result?: unknown };
  if (jsonrpc !== '2.0' || !(typeof id === 'string' || Number.isSafeInteger(id))) return undefined;
  return z.core.util.isPlainObject(result) ? (value as JsonRpcResult) : undefined;
}

/** Builds an error response. */
export function errorResponse(id: RequestId | null, error: RpcError): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error };
}
