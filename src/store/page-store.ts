/**
 * What the page keeps across reloads, and the interface it is kept behind.
 * Facts, not actors (STYLE.md): enough to start a fresh task actor where the
 * last one stopped, and the wire log. `db.ts` keeps them in IndexedDB;
 * `memory-page-store.ts` is the in-memory twin for tests and for a browser
 * whose storage cannot be opened.
 */
import { errorMessage } from '../protocol/error-message.ts';
import type { HttpFacts } from '../protocol/http-facts.ts';
import type { DetailedTask } from '../protocol/task.ts';
import type { ProgressRecord } from './task-progress.ts';

/** How following a task ended, as the client saw it. */
export type StoredOutcome = 'completed' | 'failed' | 'cancelled' | 'expired' | 'gone';

/** One followed task, written when its CreateTaskResult arrives and updated as it changes (T12). */
export interface StoredTask {
  taskId: string;
  toolName: string;
  arguments: Record<string, unknown>;
  /** Who the page followed it as (T20): another identity's id answers -32602. */
  identity: string;
  /** The server's last report (T6, T10): status, statusMessage, pollIntervalMs, ttlMs, result or error. */
  task: DetailedTask;
  /** Epoch ms when the next tasks/get is due (T12); absent while one was out, and once the task ended. */
  nextPollAt?: number;
  polls: number;
  /** Input keys answered here; never asked again (T14). */
  answeredKeys: string[];
  /** Answers whose tasks/update was not acknowledged yet (T15). */
  unsentResponses: Record<string, unknown>;
  /** The user asked to cancel (T17). */
  cancelRequested: boolean;
  /** Set once the client stopped following: the card stays listed until cleared. */
  outcome?: StoredOutcome;
  /** The last request that went wrong, as shown on the card. */
  lastError?: { code?: number; message: string };
  /** Epoch ms when this page started following it: the list's order. */
  followedAt: number;
  /**
   * Written as the page closed, so these facts were its last word: a reload
   * may poll when `nextPollAt` says, even if that is already past (T12).
   * Any later write leaves it out: the journal writes progress (the poll
   * count and schedule) only now and then, so an older schedule may be stale.
   */
  keptAtClose?: true;
  /**
   * The journal's count of writes when this was written: a task's progress
   * (`task-progress.ts`) is kept apart and counts as newer only with a larger
   * one. Absent in records from before progress was kept apart.
   */
  revision?: number;
}

/** One wire log message (the exact JSON that crossed the link). */
export interface StoredWireEntry {
  at: number;
  direction: 'out' | 'in';
  message: unknown;
  reissueOf?: number | string;
  /** What HTTP said about the exchange, with a remote server: kept so a row kept from before a reload still shows its status badge. */
  http?: HttpFacts;
}

/** How many wire messages are kept; the oldest go first. */
export const WIRE_LOG_LIMIT = 3000;

export interface PageStore {
  /** Writes these tasks, merged with what another tab may have written (see {@link mergeStoredTask}). */
  putTasks(tasks: readonly StoredTask[]): Promise<void>;
  /**
   * Writes these tasks' progress into the one record every task's progress
   * is kept in (see `mergeProgress`): one write however many tasks it holds.
   */
  putProgress(progress: ProgressRecord): Promise<void>;
  /** Deletes these tasks, their progress with them. */
  deleteTasks(taskIds: readonly string[]): Promise<void>;
  /** Every stored task, oldest followed first, its progress laid over it (`withProgress`). */
  tasks(): Promise<StoredTask[]>;
  /** Appends messages, then drops the oldest beyond {@link WIRE_LOG_LIMIT}, in one step. */
  appendWire(entries: readonly StoredWireEntry[]): Promise<void>;
  /** The kept messages, oldest first. */
  wire(): Promise<StoredWireEntry[]>;
  /** Empties tasks, their progress and the wire log. */
  clear(): Promise<void>;
}

/**
 * Two tabs may follow one task and write it in turn. Facts that only grow
 * are merged, so neither tab undoes the other: answered keys, the cancel
 * intent, the newer server report, an outcome once known.
 */
export function mergeStoredTask(stored: StoredTask | undefined, next: StoredTask): StoredTask {
  if (!stored) return next;
  const newer =
    Date.parse(next.task.lastUpdatedAt) >= Date.parse(stored.task.lastUpdatedAt)
      ? next.task
      : stored.task;
  const outcome = next.outcome ?? stored.outcome;
  return {
    ...next,
    task: newer,
    answeredKeys: [...new Set([...stored.answeredKeys, ...next.answeredKeys])],
    cancelRequested: stored.cancelRequested || next.cancelRequested,
    followedAt: Math.min(stored.followedAt, next.followedAt),
    ...(outcome ? { outcome } : {}),
  };
}

/** Why storage failed, in words a user can act on. */
export interface StorageProblem {
  kind: 'full' | 'blocked' | 'unavailable';
  message: string;
}

/** Names the problem behind a failed IndexedDB operation. */
export function storageProblemOf(error: unknown): StorageProblem {
  const name =
    typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  const detail = errorMessage(error);
  if (name === 'QuotaExceededError') {
    return {
      kind: 'full',
      message:
        'Browser storage is full: new changes are not being saved. Everything saved before is intact. Free some space, or use Clear everything.',
    };
  }
  return {
    kind: 'unavailable',
    message: `Browser storage cannot be used (${name || 'error'}: ${detail}). The page works, but tasks will not survive a reload.`,
  };
}

/** The problem when another tab holds the database open at an older version. */
export const BLOCKED_PROBLEM: StorageProblem = {
  kind: 'blocked',
  message:
    'Browser storage is blocked by another tab running an older version of this page. Close that tab; until then nothing new is saved, and nothing saved is lost.',
};
