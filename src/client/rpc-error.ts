/**
 * How a failed call is reported to callers: a JSON-RPC error object, matched
 * by `code` (postMessage and JSON strip classes, so nothing relies on instanceof).
 */
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

export function isRpcCallError(error: unknown): error is RpcCallError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { kind?: unknown }).kind === 'rpc' &&
    typeof (error as { code?: unknown }).code === 'number'
  );
}

export function describeError(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const code = 'code' in error ? ` (${String((error as { code: unknown }).code)})` : '';
    return `${String((error as { message: unknown }).message)}${code}`;
  }
  return String(error);
}
