/**
 * Control messages between the page and a server worker, outside MCP.
 * The page sends `start` once (which task store the server keeps its tasks
 * in), then one `connect` per link: "serve this port as this identity".
 * Everything after a `connect` is MCP JSON-RPC on the port. `hold-jobs`
 * stops or restarts the clock the server's jobs sleep on (the drill); `world-clock`
 * makes the worker's whole clock follow the page's (pause, speed, step). The worker
 * answers `start` with `ready`, or `storage-error` when it had to fall back.
 *
 * The x-ray: beside the MCP wire, never on it, the worker also says what its
 * task store holds (`task-stored` each time a task's status changes there,
 * `task-deleted` when a task leaves it), so the page can show what the
 * server's store holds now next to what its client last heard. No MCP client
 * can know this; the gap between the two is the lesson (T12).
 */
import { z } from 'zod';
import { TaskStatusSchema } from './task.ts';

export const ConnectMessageSchema = z.object({
  type: z.literal('connect'),
  /** The identity the page client connects as; tasks are bound to it (T20). */
  identity: z.string().min(1).max(200),
  /**
   * Both ends frame the port's traffic as batches: each `postMessage` carries
   * an array of the JSON-RPC messages sent in one tick (port-batches.ts).
   */
  batched: z.boolean().optional(),
});
export type ConnectMessage = z.infer<typeof ConnectMessageSchema>;

/** Where a server keeps its tasks: lost with the worker, or in IndexedDB, shared by every worker of the origin. */
export const TASK_STORE_KINDS = ['memory', 'indexeddb'] as const;
export const TaskStoreKindSchema = z.enum(TASK_STORE_KINDS);
export type TaskStoreKind = z.infer<typeof TaskStoreKindSchema>;

/** The IndexedDB database the page asks its server workers to share (and deletes on "Clear everything"). */
export const SERVER_DATABASE = 'mcp-tasks-playground-server';

export const StartMessageSchema = z.object({
  type: z.literal('start'),
  store: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('memory') }),
    z.object({ kind: z.literal('indexeddb'), database: z.string().min(1).max(200) }),
  ]),
  /**
   * The node's name in a cluster of workers ("node 3"): its job runner leases under it, so a
   * take-over can say which node carried a job on from which. Absent: an unnamed runner.
   */
  node: z.string().min(1).max(40).optional(),
  /**
   * The T8 bug on purpose (the early-handle lesson): this node returns a task's handle and
   * writes the task to its store this many ms later. Absent or 0: stored first, as T8 requires.
   */
  earlyHandleMs: z.number().int().min(0).max(10_000).optional(),
});
export type StartMessage = z.infer<typeof StartMessageSchema>;

/**
 * Holds the server's job clock (src/server/job-clock.ts) or lets it run:
 * the drill holds it while a learner guesses, so a task does not move on
 * under the question. Not protocol: polls and answers go on as usual.
 */
export const HoldJobsMessageSchema = z.object({ type: z.literal('hold-jobs'), held: z.boolean() });
export type HoldJobsMessage = z.infer<typeof HoldJobsMessageSchema>;

/**
 * The page's world clock, for the worker's to follow (src/clock/world-clock.ts): sent on every
 * pause, resume, speed change and step, and after each start. Paused, nothing in the server
 * moves: no job step, no lease renewal or expiry, no TTL sweep. Not protocol.
 */
export const WorldClockMessageSchema = z.object({
  type: z.literal('world-clock'),
  paused: z.boolean(),
  /** World time per wall time, 0.1 to 4. */
  rate: z.number().min(0.1).max(4),
  /** The page's world time when it sent this, epoch-like ms. */
  now: z.number().finite().nonnegative(),
  /**
   * The wall time (`Date.now()`, shared by the page and its workers) when `now` was read: a
   * worker still booting reads the message late, and must not start that much behind.
   */
  wallAt: z.number().finite().nonnegative().optional(),
});
export type WorldClockMessage = z.infer<typeof WorldClockMessageSchema>;

/** Everything the page may send a worker. */
export const WorkerControlSchema = z.discriminatedUnion('type', [
  StartMessageSchema,
  ConnectMessageSchema,
  HoldJobsMessageSchema,
  WorldClockMessageSchema,
]);
export type WorkerControl = z.infer<typeof WorkerControlSchema>;

const XrayTaskId = z.string().min(1).max(500);

/** The x-ray: a task's status in the server's store changed (or the task was created, or was there at start). */
export const TaskStoredEventSchema = z.object({
  type: z.literal('task-stored'),
  taskId: XrayTaskId,
  status: TaskStatusSchema,
  /** The record's `lastUpdatedAt`, epoch ms. */
  lastUpdatedAt: z.number().finite(),
});
/** The x-ray: a task left the server's store (deleted after its TTL, T13). Deletion is no status. */
export const TaskDeletedEventSchema = z.object({
  type: z.literal('task-deleted'),
  taskId: XrayTaskId,
});
export type StoreXrayEvent =
  z.infer<typeof TaskStoredEventSchema> | z.infer<typeof TaskDeletedEventSchema>;

/**
 * What a worker tells the page about itself. A fresh worker sends a
 * `task-stored` for every task its store already holds, then `ready`: from
 * `ready` on, a task the page has heard nothing of is not in the store.
 */
export const WorkerEventSchema = z.discriminatedUnion('type', [
  /** The server is serving, with this store. */
  z.object({ type: z.literal('ready'), store: TaskStoreKindSchema }),
  /** The requested store could not be used; the server keeps tasks in memory instead. */
  z.object({
    type: z.literal('storage-error'),
    requested: TaskStoreKindSchema,
    message: z.string(),
  }),
  TaskStoredEventSchema,
  TaskDeletedEventSchema,
]);
export type WorkerEvent = z.infer<typeof WorkerEventSchema>;
