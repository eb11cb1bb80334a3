/**
 * Pure transitions of a stored task. Every write to a task goes through one
 * of these, so the rules of T9 (terminal is forever), T13 (TTL) and T15
 * (which answers count) hold in one place whichever store is used. Every
 * status change is asked of the lifecycle machine (src/machines/task-lifecycle.ts):
 * a move it does not take leaves the task as it is.
 */
import { ErrorCode } from '../protocol/constants.ts';
import {
  isTerminal,
  type CallToolResult,
  type InputRequest,
  type RpcError,
} from '../protocol/task.ts';
import { statusAfter, type LifecycleEvent } from '../machines/task-lifecycle.ts';
import type { TaskRecord } from './task-store.ts';

/** How a job ended, as its runner reports it. */
export type Outcome =
  | { status: 'completed'; result: CallToolResult }
  | { status: 'failed'; error: RpcError }
  | { status: 'cancelled' };

/** The lifecycle event an outcome is: named for its cause, never for the status it leads to. */
const EVENT_OF: Record<Outcome['status'], LifecycleEvent> = {
  completed: { type: 'job.returnedResult' },
  failed: { type: 'job.raisedProtocolError' },
  cancelled: { type: 'job.honouredCancel' },
};

/** What `statusMessage` says once a task has ended this way (T10); progress text would be stale. */
export const CANCELLED_MESSAGE = 'Cancelled: the job stopped when tasks/cancel asked it to';

/**
 * Moves `record` on `event` if the lifecycle machine takes it there, with
 * `fields` for the new state; otherwise returns `record` itself (T9).
 */
function move(
  record: TaskRecord,
  event: LifecycleEvent,
  now: number,
  fields: Partial<TaskRecord> = {},
): TaskRecord {
  const status = statusAfter(record.status, event);
  if (status === undefined) return record;
  return { ...record, ...fields, status, lastUpdatedAt: now };
}

/**
 * Ends a task. A task that already ended keeps its first outcome (T9). A
 * tool result, `isError` or not, ends it `completed` (T11); a failed task
 * says why in `statusMessage` (T10), and a cancelled one that it was cancelled.
 */
export function finish(record: TaskRecord, outcome: Outcome, now: number): TaskRecord {
  return move(record, EVENT_OF[outcome.status], now, {
    inputRequests: {},
    ...(outcome.status === 'completed' ? { result: outcome.result } : {}),
    ...(outcome.status === 'failed'
      ? { error: outcome.error, statusMessage: `Failed: ${outcome.error.message}` }
      : {}),
    ...(outcome.status === 'cancelled' ? { statusMessage: CANCELLED_MESSAGE } : {}),
  });
}

/** The error a task carries when its TTL passes before it finished (T13). */
export const EXPIRED_ERROR: RpcError = {
  code: ErrorCode.InternalError,
  message: 'Task expired: its ttlMs passed before it finished',
};

/**
 * T13: the TTL passed before the task ended: `failed` with {@link EXPIRED_ERROR},
 * and a `statusMessage` that says so instead of the job's last progress.
 * A task that already ended is left alone (this project's reading of T9).
 */
export function expire(record: TaskRecord, now: number): TaskRecord {
  return move(record, { type: 'ttl.passed' }, now, {
    inputRequests: {},
    error: EXPIRED_ERROR,
    statusMessage: `Expired: its ttlMs (${record.ttlMs} ms) passed before it finished`,
  });
}

/** Sets the progress text of a running task. */
export function withStatusMessage(
  record: TaskRecord,
  statusMessage: string,
  now: number,
): TaskRecord {
  if (isTerminal(record.status)) return record;
  return { ...record, statusMessage, lastUpdatedAt: now };
}

/** A new suggested poll interval (T6: `pollIntervalMs` may change over the task's life, T12). */
export function withPollInterval(
  record: TaskRecord,
  pollIntervalMs: number,
  now: number,
): TaskRecord {
  if (isTerminal(record.status) || record.pollIntervalMs === pollIntervalMs) return record;
  return { ...record, pollIntervalMs, lastUpdatedAt: now };
}

/** Moves a task to `input_required` with new requests; keys are never reused (T14). */
export function requestInput(
  record: TaskRecord,
  requests: Record<string, InputRequest>,
  now: number,
): TaskRecord {
  if (isTerminal(record.status)) return record;
  const reused = Object.keys(requests).filter((key) => record.issuedInputKeys.includes(key));
  if (reused.length > 0) throw new Error(`input keys reused within one task: ${reused.join(', ')}`);
  return move(record, { type: 'job.askedForInput' }, now, {
    inputRequests: { ...record.inputRequests, ...requests },
    issuedInputKeys: [...record.issuedInputKeys, ...Object.keys(requests)],
  });
}

/**
 * Records answers from `tasks/update` (T15): only keys that are outstanding
 * and not answered yet count; unknown, answered or superseded keys are
 * ignored. Partial sets are kept until the job takes them.
 *
 * An answered request is no longer outstanding, so it leaves `inputRequests`
 * at once: `tasks/get` lists only what still needs an answer (T10, T14), and
 * the task stays `input_required` only while something does.
 */
export function acceptResponses(
  record: TaskRecord,
  responses: Record<string, unknown>,
  now: number,
): TaskRecord {
  if (record.status !== 'input_required') return record;
  const accepted = Object.entries(responses).filter(
    ([key]) =>
      Object.hasOwn(record.inputRequests, key) && !Object.hasOwn(record.inputResponses, key),
  );
  if (accepted.length === 0) return record;
  const inputRequests = { ...record.inputRequests };
  for (const [key] of accepted) delete inputRequests[key];
  const answered = {
    ...record,
    inputRequests,
    inputResponses: { ...record.inputResponses, ...Object.fromEntries(accepted) },
    lastUpdatedAt: now,
  };
  // A partial answer moves nothing: the task stays input_required until every key is answered.
  return Object.keys(inputRequests).length > 0
    ? answered
    : move(answered, { type: 'input.allAnswered' }, now);
}

/** Whether every outstanding request has an answer waiting. */
export function allAnswered(record: TaskRecord, keys: readonly string[]): boolean {
  return keys.every((key) => Object.hasOwn(record.inputResponses, key));
}

/** Hands answers to the job and returns the task to `working`. */
export function takeResponses(
  record: TaskRecord,
  keys: readonly string[],
  now: number,
): TaskRecord {
  if (isTerminal(record.status)) return record;
  const inputRequests = { ...record.inputRequests };
  const inputResponses = { ...record.inputResponses };
  for (const key of keys) {
    delete inputRequests[key];
    delete inputResponses[key];
  }
  const taken = { ...record, inputRequests, inputResponses, lastUpdatedAt: now };
  const stillWaiting = Object.keys(inputRequests).length > 0;
  if (stillWaiting && record.status === 'working')
    return move(taken, { type: 'job.askedForInput' }, now);
  if (!stillWaiting && record.status === 'input_required')
    return move(taken, { type: 'input.allAnswered' }, now);
  return taken;
}

/** Notes a `tasks/cancel` (T17). A finished task is left as it is. */
export function requestCancel(record: TaskRecord, now: number): TaskRecord {
  if (isTerminal(record.status) || record.cancelRequested) return record;
  return { ...record, cancelRequested: true, lastUpdatedAt: now };
}

export type Expiry = 'live' | 'expire' | 'purge';

/**
 * T13: once `createdAt + ttlMs` has passed, an unfinished task is marked
 * `failed`; `purgeAfterMs` later it is deleted, and its id answers -32602.
 * A task is never expired before its TTL.
 */
export function expiryOf(record: TaskRecord, now: number, purgeAfterMs: number): Expiry {
  if (record.ttlMs === null) return 'live';
  const deadline = record.createdAt + record.ttlMs;
  if (now < deadline) return 'live';
  if (now >= deadline + purgeAfterMs) return 'purge';
  return isTerminal(record.status) ? 'live' : 'expire';
}
