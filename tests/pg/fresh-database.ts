/**
 * A database of its own on the shared test server, for tests that start
 * whole nodes (which keep their tables in the default schema).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** Creates an empty database and returns its URL. */
export async function freshDatabase(): Promise<string> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client(inject('pgUrl'));
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(inject('pgUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}
