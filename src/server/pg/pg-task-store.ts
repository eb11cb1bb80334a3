/**
 * A task store in PostgreSQL (node-postgres): what lets several Node server
 * nodes serve the same tasks behind a load balancer with no sticky routing
 * (C1, M5). Every change is atomic on the database side: `update` and
 * `updateMany` lock the rows they change (`SELECT … FOR UPDATE`) in one
 * transaction, so a lease is claimed by one node only, and only once it has
 * expired (the rule in task-durability.ts runs on the locked row). Every
 * write sends a `NOTIFY` in its transaction; each node `LISTEN`s, reads the
 * changed tasks back and tells its subscribers, so a `tasks/cancel` served by
 * node B reaches a job on node A, and a listen stream on A pushes B's change.
 *
 * When the database cannot be reached, calls reject with
 * `TaskStoreUnavailable` (requests get `-32603`), nothing crashes, and the
 * pool and the listener reconnect once it is back.
 */
import pg from 'pg';
import { z } from 'zod';
import { isTerminal } from '../../protocol/task.ts';
import {
  assertDistinct,
  TaskStoreUnavailable,
  type TaskRecord,
  type TaskStore,
  type TaskUpdate,
} from '../task-store.ts';
import { migrate } from './migrations.ts';
import { isUnavailable } from './unavailable.ts';
import { PgChangeListener } from './change-listener.ts';
import { ReadBackQueue } from '../read-back-queue.ts';
import { GroupedReads } from './grouped-reads.ts';

export interface PgTaskStoreOptions {
  /** `postgres://user:password@host:port/database` */
  connectionString: string;
  /** The PostgreSQL schema holding the tables; `public` unless given (tests use one each). */
  schema?: string;
  /** Connections in this node's pool. */
  poolSize?: number;
  /** How long a request waits for a connection before the store counts as unavailable. */
  connectTimeoutMs?: number;
}

/** What a NOTIFY carries: which store instance wrote, and which tasks; receivers read them back. */
const ChangeSchema = z.object({ from: z.string(), ids: z.array(z.string()) });
/** NOTIFY payloads must stay under 8000 bytes: longer id lists go in several. */
const MAX_PAYLOAD_CHARS = 7000;

export class PgTaskStore implements TaskStore {
  readonly #pool: pg.Pool;
  readonly #listener: PgChangeListener;
  readonly #listeners = new Set<(record: TaskRecord) => void>();
  /** This instance's id in NOTIFY payloads: its own changes are announced here at once, not read back. */
  readonly #instance = crypto.randomUUID();
  readonly #channel: string;
  readonly #table: string;
  /** The name of the prepared `get`, per schema (a connection's statements are its own). */
  readonly #getStatement: string;
  /** Tasks another node changed that are still to be read back and announced here. */
  /** Other nodes' changes, read back together (one query at a time, not one per changed task). */
  readonly #readBack = new ReadBackQueue(
    async (taskIds) =>
      (
        await this.#query(`SELECT record FROM ${this.#table} WHERE task_id = ANY($1)`, [
          [...taskIds],
        ])
      ).rows.map((row) => parseRecord(row.record)),
    (record) => this.#notify(record),
  );

  /**
   * Every poll (tasks/get) is a read of one task: the reads asked for meanwhile go together,
   * one query at a time, as a named statement (each connection has PostgreSQL parse and plan
   * it once, not once per poll).
   */
  readonly #reads = new GroupedReads(async (taskIds) => {
    const { rows } = await this.#query<{ task_id: string; record: string }>(
      `SELECT task_id, record FROM ${this.#table} WHERE task_id = ANY($1)`,
      [taskIds],
      this.#getStatement,
    );
    return new Map(rows.map((row) => [row.task_id, row.record]));
  });

  private constructor(options: PgTaskStoreOptions, schema: string) {
    this.#pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
    });
    // An idle connection the server dropped (a restart) is reported here; the pool replaces it.
    this.#pool.on('error', () => {});
    const ident = pg.escapeIdentifier(schema);
    this.#table = `${ident}.mcp_tasks`;
    this.#getStatement = `mcp_tasks_get:${schema}`;
    this.#channel = `mcp_tasks_changed:${schema}`;
    this.#listener = new PgChangeListener(options.connectionString, this.#channel, (payload) =>
      this.#received(payload),
    );
  }

  /**
   * Connects, brings the schema up to date (migrations.ts) and starts
   * listening for other nodes' changes. Rejects with `TaskStoreUnavailable`
   * when the database cannot be reached.
   */
  static async open(options: PgTaskStoreOptions): Promise<PgTaskStore> {
    const schema = options.schema ?? 'public';
    const store = new PgTaskStore(options, schema);
    try {
      await store.#withClient((client) => migrate(client, schema));
      await store.#listener.start();
    } catch (error) {
      await store.close();
      throw asUnavailable(error);
    }
    return store;
  }

  async create(record: TaskRecord): Promise<void> {
    await this.#query(
      `WITH created AS (
        INSERT INTO ${this.#table} (task_id, status, record) VALUES ($1, $2, $3) RETURNING task_id
      ) SELECT pg_notify($4, $5) FROM created`,
      [
        record.taskId,
        record.status,
        JSON.stringify(record),
        this.#channel,
        this.#payloads([record.taskId])[0],
      ],
    );
    this.#notify(record);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.#reads.get(taskId);
    // Parsed for each caller: every copy is its own.
    return text === undefined ? undefined : parseRecord(text);
  }

  async update(taskId: string, update: TaskUpdate): Promise<TaskRecord | undefined> {
    const [stored] = await this.#change([taskId], update);
    return stored;
  }

  async updateMany(
    taskIds: readonly string[],
    update: TaskUpdate,
  ): Promise<(TaskRecord | undefined)[]> {
    assertDistinct(taskIds);
    if (taskIds.length === 0) return [];
    return this.#change(taskIds, update);
  }

  async delete(taskId: string): Promise<void> {
    await this.#query(`DELETE FROM ${this.#table} WHERE task_id = $1`, [taskId]);
  }

  async all(): Promise<TaskRecord[]> {
    const { rows } = await this.#query(`SELECT record FROM ${this.#table} ORDER BY task_id`);
    return rows.map((row) => parseRecord(row.record));
  }

  async unfinished(): Promise<TaskRecord[]> {
    const { rows } = await this.#query(
      `SELECT record FROM ${this.#table} WHERE status IN ('working', 'input_required')`,
    );
    return rows.map((row) => parseRecord(row.record)).filter((r) => !isTerminal(r.status));
  }

  subscribe(listener: (record: TaskRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Closes the pool and the listening connection. */
  async close(): Promise<void> {
    await Promise.allSettled([this.#listener.stop(), this.#pool.end()]);
  }

  /**
   * Reads and locks the tasks (in id order, so two nodes locking the same
   * tasks never deadlock), applies `update` to each, and stores them all, in
   * one transaction: all are written, or (when `update` throws) none.
   */
  async #change(
    taskIds: readonly string[],
    update: TaskUpdate,
  ): Promise<(TaskRecord | undefined)[]> {
    const changed = await this.#withClient(async (client) => {
      await client.query('BEGIN');
      try {
        const { rows } = await client.query<{ task_id: string; record: string }>(
          `SELECT task_id, record FROM ${this.#table} WHERE task_id = ANY($1) ORDER BY task_id FOR UPDATE`,
          [taskIds],
        );
        const current = new Map(rows.map((row) => [row.task_id, parseRecord(row.record)]));
        const next = taskIds.map((taskId) => {
          const record = current.get(taskId);
          return record && update(record);
        });
        const stored = next.filter((record) => record !== undefined);
        if (stored.length > 0) {
          await client.query(
            `UPDATE ${this.#table} AS t SET status = v.status, record = v.record
              FROM unnest($1::text[], $2::text[], $3::text[]) AS v(task_id, status, record)
              WHERE t.task_id = v.task_id`,
            [
              stored.map((r) => r.taskId),
              stored.map((r) => r.status),
              stored.map((r) => JSON.stringify(r)),
            ],
          );
          // Delivered to every listening node when, and only if, the transaction commits.
          await client.query('SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload', [
            this.#channel,
            this.#payloads(stored.map((r) => r.taskId)),
          ]);
        }
        await client.query('COMMIT');
        return next;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    });
    for (const record of changed) if (record) this.#notify(record);
    // Parsed again from what was stored: the caller's copy is its own.
    return changed.map((record) => record && parseRecord(JSON.stringify(record)));
  }

  #payloads(taskIds: readonly string[]): string[] {
    const payloads: string[] = [];
    let ids: string[] = [];
    let length = 0;
    for (const taskId of taskIds) {
      if (ids.length > 0 && length + taskId.length + 4 > MAX_PAYLOAD_CHARS) {
        payloads.push(JSON.stringify({ from: this.#instance, ids }));
        ids = [];
        length = 0;
      }
      ids.push(taskId);
      length += taskId.length + 4;
    }
    payloads.push(JSON.stringify({ from: this.#instance, ids }));
    return payloads;
  }

  /** A NOTIFY arrived: another node's changes are read back (together, one query at a time). */
  #received(payload: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    const change = ChangeSchema.safeParse(parsed);
    if (!change.success || change.data.from === this.#instance) return;
    this.#readBack.add(change.data.ids);
  }

  #notify(record: TaskRecord): void {
    // A copy each, so no listener can change what another one sees.
    for (const listener of this.#listeners) listener(structuredClone(record));
  }

  async #query<Row extends pg.QueryResultRow = { record: string }>(
    text: string,
    values?: unknown[],
    name?: string,
  ): Promise<pg.QueryResult<Row>> {
    try {
      return await this.#pool.query<Row>({
        text,
        ...(values ? { values } : {}),
        ...(name ? { name } : {}),
      });
    } catch (error) {
      throw asUnavailable(error);
    }
  }

  async #withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw asUnavailable(error);
    }
    let broken: unknown;
    try {
      return await work(client);
    } catch (error) {
      if (isUnavailable(error)) broken = error;
      throw asUnavailable(error);
    } finally {
      // A connection that failed is not handed out again.
      client.release(broken instanceof Error ? broken : undefined);
    }
  }
}

/** A stored task: JSON this store wrote, from its own table. */
function parseRecord(text: string): TaskRecord {
  return JSON.parse(text) as TaskRecord;
}

function asUnavailable(error: unknown): unknown {
  // Already said (a query inside open() that failed): wrapping it again would say it twice.
  if (error instanceof TaskStoreUnavailable || !isUnavailable(error)) return error;
  const reason = error instanceof Error && error.message ? error.message : 'no connection';
  return new TaskStoreUnavailable(`PostgreSQL: ${reason}`);
}
