/**
 * How a failed call is reported to callers: a JSON-RPC error object, matched
 * by `code` (postMessage and JSON strip classes, so nothing relies on instanceof).
 */
import { errorMessage } from '../protocol/error-message.ts';
import type { RpcError } from '../protocol/task.ts';

/** A server answered with a JSON-RPC error. */
export interface RpcCallError extends RpcError {
  kind: 'rpc';
}

/** The answer was not a valid response of the expected shape. */
export interface InvalidResponseError {
  kind: 'invalid-response';
  message: string;
}

/** The client was closed before an answer came. */
export interface ClosedError {
  kind: 'closed';
  message: string;
}

export type CallError = RpcCallError | InvalidResponseError | ClosedError;

/** A failed call as one line: its message, and the JSON-RPC code when it has one (`Task not found (-32602)`). */
export function describeError(error: unknown): string {
  const code =
    typeof error === 'object' && error !== null && 'message' in error && 'code' in error
      ? ` (${String(error.code)})`
      : '';
  return `${errorMessage(error)}${code}`;
}
