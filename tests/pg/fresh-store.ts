/**
 * Stores on the shared test server, each in a PostgreSQL schema no other
 * test uses, so tests never see each other's tasks; closed after each test.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, inject } from 'vitest';
import { PgTaskStore } from '../../src/server/pg/pg-task-store.ts';

const opened: PgTaskStore[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

/** A schema name of its own. */
export function freshSchema(): string {
  return `test_${randomBytes(6).toString('hex')}`;
}

/** A store on the shared server; pass the same schema twice for two nodes sharing tasks. */
export async function openStore(schema = freshSchema()): Promise<PgTaskStore> {
  const store = await PgTaskStore.open({ connectionString: inject('pgUrl'), schema, poolSize: 4 });
  opened.push(store);
  return store;
}
