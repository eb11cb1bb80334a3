/**
 * Who is calling. A task belongs to the identity that created it (T20); the
 * store keeps only a digest, so a stored task never holds a bearer token.
 */

/** The identity used when a caller presents none. */
export const ANONYMOUS = 'anonymous';

/**
 * How many identities' digests are remembered. A client polls with the same
 * identity again and again, so a few are enough; the bound keeps a Node host
 * fed arbitrary bearer tokens from growing without limit.
 */
const REMEMBERED_DIGESTS = 256;
const digests = new Map<string, Promise<string>>();

/**
 * A stable, non-reversible digest of an identity string. Every request needs
 * its caller's digest, and `crypto.subtle.digest` is asynchronous (a browser
 * computes it off the worker's thread), so each identity is hashed once and
 * remembered in this process's memory only: the store still never holds a
 * bearer token.
 */
export function ownerDigest(identity: string): Promise<string> {
  const known = digests.get(identity);
  if (known) return known;
  const digest = sha256Hex(`mcp-tasks-playground:${identity}`);
  if (digests.size >= REMEMBERED_DIGESTS) digests.delete(digests.keys().next().value!);
  digests.set(identity, digest);
  digest.catch(() => digests.get(identity) === digest && digests.delete(identity));
  return digest;
}

async function sha256Hex(text: string): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A new task id: 128 random bits, so ids cannot be guessed or enumerated
 * (T20). Base64url keeps it short and safe in an HTTP header (T19).
 */
export function newTaskId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}
