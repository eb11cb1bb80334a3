/**
 * The `--store` option of `npm run serve`: `memory` (one node, the default)
 * or a PostgreSQL URL (any number of nodes sharing it). Checked before
 * anything starts, so a typo is a usage error, not a connection failure.
 */

export type StoreChoice =
  | { kind: 'memory' }
  | {
      kind: 'postgres';
      url: string;
      /** The URL with its password hidden, for messages. */ shown: string;
    }
  | { kind: 'error'; message: string };

export function parseStoreOption(text: string | undefined): StoreChoice {
  if (text === undefined || text === 'memory') return { kind: 'memory' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      kind: 'error',
      message: `Invalid --store "${redact(text)}": expected "memory" or a URL postgres://user:password@host:port/database`,
    };
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    return {
      kind: 'error',
      message: `Invalid --store "${redact(text)}": the scheme is ${url.protocol.replace(':', '')}, expected postgres (or "memory")`,
    };
  if (url.hostname === '')
    return { kind: 'error', message: `Invalid --store "${redact(text)}": the URL names no host` };
  if (url.port !== '' && !(Number(url.port) > 0))
    return { kind: 'error', message: `Invalid --store "${redact(text)}": bad port ${url.port}` };
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
