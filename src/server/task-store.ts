/**
 * Where tasks live. The server never keeps a task only in a job's memory:
 * every fact a `tasks/get` reports comes from this store, so a store shared
 * by several server nodes (or one that outlives a worker) serves any of them
 * (C1, M5). The in-memory store is one implementation; IndexedDB is another.
 */
import type { CallToolResult, InputRequest, RpcError, TaskStatus } from '../protocol/task.ts';

/** Everything the server knows about one task. Plain data: it must survive structured clone and JSON. */
export interface TaskRecord {
  taskId: string;
  /** Who created it (T20): a digest of the caller's identity, never the raw token. */
  owner: string;
  toolName: string;
  arguments: Record<string, unknown>;
  status: TaskStatus;
  statusMessage?: string;
  /** Epoch milliseconds. */
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number | null;
  pollIntervalMs: number;
  /** Outstanding input requests by key (T14). */
  inputRequests: Record<string, InputRequest>;
  /** Every key ever issued for this task, so none is reused (T14). */
  issuedInputKeys: string[];
  /** Answers received by `tasks/update` and not yet taken by the job (T15). */
  inputResponses: Record<string, unknown>;
  /** A `tasks/cancel` arrived (T17). The job decides what that means. */
  cancelRequested: boolean;
  result?: CallToolResult;
  error?: RpcError;
  /**
   * Which job runner may run this task's job and write its progress, until
   * when. The holder renews it by heartbeat; another runner takes the job
   * over only once it has expired, so two workers never run one job at once.
   */
  lease?: Lease;
  /** The job's last saved progress: where a fresh worker carries it on from. */
  checkpoint?: Checkpoint;
  /** How many times a fresh worker took the job over. */
  resumes?: number;
  /** The last take-over: which runner carried the job on, from which one, and from which checkpoint. */
  takeover?: Takeover;
  /**
   * Answers the job already took (T15). Kept so that a job resumed by a
   * fresh worker gets them back instead of asking again: keys are never reused (T14).
   */
  takenResponses?: Record<string, unknown>;
}

/** One take-over of a job by a fresh runner (runner ids, as leases name them). */
export interface Takeover {
  by: string;
  /** The runner whose lease ran out; absent when none had held it. */
  from?: string;
  /** The checkpoint's label the job carried on from; absent when it started over. */
  checkpoint?: string;
}

/** A job runner's claim on a task's job. */
export interface Lease {
  /** The runner's id. */
  holder: string;
  /** Epoch ms after which another runner may take the job over. */
  expiresAt: number;
}

/** Progress a job saved, so a fresh worker can carry it on from there. */
export interface Checkpoint {
  /** The job's own data, read back as `resumeFrom`. Plain data. */
  data: unknown;
  /** Says what is done, for people: shown on the task. */
  label: string;
  /** Epoch ms. */
  savedAt: number;
}

/** A change to a record, applied atomically by the store. */
export type TaskUpdate = (record: TaskRecord) => TaskRecord;

export interface TaskStore {
  /** Stores a new task; resolves once a `get` for it would find it (T8). */
  create(record: TaskRecord): Promise<void>;
  /**
   * The stored record, to read: never change it. A store may hand out its own
   * record, frozen (the memory store does, since every poll reads one), or a
   * copy; either way no caller can change the store behind its back.
   */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Applies `update` to the current record and stores the outcome, as one
   * step with no interleaving. Resolves with the stored record, or
   * undefined when there is no such task.
   */
  update(taskId: string, update: TaskUpdate): Promise<TaskRecord | undefined>;
  /**
   * Applies `update` to each of the tasks `taskIds` names, all as one step
   * with no interleaving: every record is changed, or (when `update` throws)
   * none is. Resolves with the stored records in the order of `taskIds`,
   * undefined where there is no such task. Naming a task twice is an error.
   * A job runner renews all its leases and saves its jobs' progress this way,
   * in one write instead of one per job (job-runner.ts).
   */
  updateMany(taskIds: readonly string[], update: TaskUpdate): Promise<(TaskRecord | undefined)[]>;
  delete(taskId: string): Promise<void>;
  /** Every stored record (for expiry sweeps). */
  all(): Promise<TaskRecord[]>;
  /** Every record not yet `completed`, `failed` or `cancelled`: what a fresh worker may resume. */
  unfinished(): Promise<TaskRecord[]>;
  /**
   * Calls `listener` after every create or update, including those another
   * worker makes on a shared store. Returns an unsubscribe function.
   */
  subscribe(listener: (record: TaskRecord) => void): () => void;
}

/** `updateMany`'s rule that no task is named twice: its update would run twice, on a record it already changed. */
export function assertDistinct(taskIds: readonly string[]): void {
  if (new Set(taskIds).size !== taskIds.length)
    throw new Error('updateMany: a task is named twice');
}

/**
 * The store cannot be reached (a shared database went away). Requests that
 * need it are answered `-32603` saying so (create-server.ts), and nothing
 * crashes: service resumes once the store is back.
 */
export class TaskStoreUnavailable extends Error {
  constructor(cause: string) {
    super(`Internal error: the task store is unavailable (${cause})`);
    this.name = 'TaskStoreUnavailable';
  }
}
