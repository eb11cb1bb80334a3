/**
 * Who is calling. A task belongs to the identity that created it (T20); the
 * store keeps only a digest, so a stored task never holds a bearer token.
 */

/** The identity used when a caller presents none. */
export const ANONYMOUS = 'anonymous';

/** A stable, non-reversible digest of an identity string. */
export async function ownerDigest(identity: string): Promise<string> {
  const bytes = new TextEncoder().encode(`mcp-tasks-playground:${identity}`);
  const hash = await crypto.subtle.digest('SHA-256', bytes);
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
