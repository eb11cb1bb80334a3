/**
 * Owner digests (T20): a task belongs to the digest of its creator's
 * identity, so the digest must never change for an identity, even though
 * the server remembers only recent ones instead of hashing per request.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ownerDigest } from '../../../src/server/identity.ts';

/** The digest computed independently, as the store has always held it. */
function expected(identity: string): string {
  return createHash('sha256').update(`mcp-tasks-playground:${identity}`).digest('hex');
}

describe('ownerDigest', () => {
  it('T20: is the SHA-256 of the identity, the same on every call, and still so after many other identities', async () => {
    expect(await ownerDigest('alice')).toBe(expected('alice'));
    expect(await ownerDigest('alice')).toBe(expected('alice'));
    const others = Array.from({ length: 1000 }, (_, i) => `token-${i}`);
    const digests = await Promise.all(others.map((identity) => ownerDigest(identity)));
    expect(digests).toEqual(others.map(expected));
    expect(new Set(digests).size).toBe(others.length);
    expect(await ownerDigest('alice')).toBe(expected('alice'));
    expect(await ownerDigest('')).toBe(expected(''));
  });
});
