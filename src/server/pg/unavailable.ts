/**
 * Which node-postgres failures mean "the database cannot be reached" (as
 * opposed to a query it refused, such as a duplicate id): those become
 * `TaskStoreUnavailable`, answered `-32603`, while the pool keeps trying.
 */

/** Socket-level failures: the server is down, restarting, or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATE classes 08 (connection exception) and 57P (operator intervention:
 * the server shutting down, starting up, or in crash recovery).
 */
const UNAVAILABLE_SQLSTATE = /^(08|57P)/;

/** node-postgres's own messages for a connection that broke or never came. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end/i;

export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TaskStoreUnavailable') return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)))
    return true;
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  return UNAVAILABLE_MESSAGE.test(error.message);
}
