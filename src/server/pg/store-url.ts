/**
 * The `--store` option of `npm run serve`: `memory` (one node, the default)
 * or a PostgreSQL URL (any number of nodes sharing it), and `npm run
 * cluster`'s `--database` (a PostgreSQL URL only), in one wording. Checked
 * before anything starts, so a typo is a usage error, not a connection failure.
 */

export type StoreChoice =
  | { kind: 'memory' }
  | {
      kind: 'postgres';
      url: string;
      /** The URL with its password hidden, for messages. */ shown: string;
    }
  | { kind: 'error'; message: string };

const POSTGRES_URL = 'a URL postgres://user:password@host:port/database';

/** `--store` of `npm run serve`: `memory`, or a PostgreSQL URL. */
export function parseStoreOption(text: string | undefined): StoreChoice {
  if (text === undefined || text === 'memory') return { kind: 'memory' };
  return parsePostgresUrl(text, '--store', true);
}

/**
 * `--database` of `npm run cluster`: a PostgreSQL URL only, since its nodes
 * must share one store; the same wording as `--store`'s, so both say a wrong
 * value alike (`Invalid --… "value": …, expected …`).
 */
export function parseDatabaseOption(text: string): StoreChoice {
  if (text === 'memory')
    return {
      kind: 'error',
      message: `Invalid --database "memory": expected ${POSTGRES_URL} (the cluster's nodes share one database; per-node memory is one node's: npm run serve -- --store memory)`,
    };
  return parsePostgresUrl(text, '--database', false);
}

/** A PostgreSQL URL given to `option` (which may also take `memory`), or why it is not one. */
function parsePostgresUrl(text: string, option: string, orMemory: boolean): StoreChoice {
  const invalid = (why: string): StoreChoice => ({
    kind: 'error',
    message: `Invalid ${option} "${redact(text)}": ${why}`,
  });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid(`expected ${orMemory ? '"memory" or ' : ''}${POSTGRES_URL}`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    return invalid(
      `the scheme is ${url.protocol.replace(':', '')}, expected postgres${orMemory ? ' (or "memory")' : ''}`,
    );
  if (url.hostname === '') return invalid('the URL names no host');
  if (url.port !== '' && !(Number(url.port) > 0)) return invalid(`bad port ${url.port}`);
  return { kind: 'postgres', url: text, shown: redact(text) };
}

/** A URL as it may be printed: any password replaced by `***`. */
export function redact(text: string): string {
  try {
    const url = new URL(text);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return text.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}
