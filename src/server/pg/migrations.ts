/**
 * The PostgreSQL store's schema, as versioned migrations. Each runs once, in
 * a transaction of its own, recorded in `mcp_tasks_migrations`. Every node
 * of a cluster runs `migrate` as it starts, often at the same moment: a
 * transaction-scoped advisory lock makes them take turns, and each reads
 * what is applied only once it holds the lock, so no migration runs twice.
 */
import type { ClientBase } from 'pg';

export interface Migration {
  version: number;
  /** Says what it does, for people reading the migrations table. */
  name: string;
  sql: string;
}

/**
 * In order; never edit one that shipped, add the next. A task is kept as its
 * JSON text (exactly what `JSON.stringify` wrote, so it reads back unchanged:
 * `jsonb` would refuse a `\u0000` a tool argument may hold), beside the
 * columns queries select on.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tasks by id',
    sql: `CREATE TABLE mcp_tasks (
      task_id text PRIMARY KEY,
      status text NOT NULL,
      record text NOT NULL
    )`,
  },
  {
    version: 2,
    name: 'find unfinished tasks without reading finished ones',
    sql: `CREATE INDEX mcp_tasks_unfinished ON mcp_tasks (status)
      WHERE status IN ('working', 'input_required')`,
  },
];

/** The advisory lock every node takes to migrate: any fixed 64-bit number, the same everywhere. */
const MIGRATION_LOCK = 7_261_304_113;

/**
 * Brings the schema `schema` up to date, creating it if need be. Resolves
 * with the versions this call applied (none when another node did it first).
 */
export async function migrate(
  client: ClientBase,
  schema: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const applied: number[] = [];
  const ident = client.escapeIdentifier(schema);
  for (const migration of migrations) {
    await client.query('BEGIN');
    try {
      // Held until COMMIT or ROLLBACK: every node migrating this database waits here in turn.
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${ident}.mcp_tasks_migrations (
          version integer PRIMARY KEY,
          name text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now()
        )`,
      );
      const done = await client.query(
        `SELECT 1 FROM ${ident}.mcp_tasks_migrations WHERE version = $1`,
        [migration.version],
      );
      if (done.rowCount === 0) {
        await client.query(`SET LOCAL search_path TO ${ident}`);
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO ${ident}.mcp_tasks_migrations (version, name) VALUES ($1, $2)`,
          [migration.version, migration.name],
        );
        applied.push(migration.version);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  }
  return applied;
}
