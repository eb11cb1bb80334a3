/**
 * The one way this project turns something thrown or rejected into text for
 * a log line, a card or a report. What arrives may be an `Error`, a JSON-RPC
 * error object or a `CallError` (plain objects once they have crossed
 * postMessage or JSON, so no `instanceof` can be relied on), or any value.
 */

/** The `message` of anything that has one (an Error, a JSON-RPC error object), else the value as text. */
export function errorMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error)
    return String(error.message);
  return String(error);
}
