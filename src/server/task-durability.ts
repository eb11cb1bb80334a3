/**
 * Pure transitions for durable jobs: leases, checkpoints and take-overs.
 * Like task-lifecycle.ts, each one is applied inside a store's atomic
 * `update`, so "is the lease free?" and "take it" happen as one step,
 * whichever store and however many workers share it.
 */
import { isTerminal } from '../protocol/task.ts';
import type { TaskRecord, Takeover } from './task-store.ts';

/** How long a lease lasts without a heartbeat. */
export const LEASE_MS = 3000;
/** How often a runner renews the leases it holds: a few heartbeats fit in one lease. */
export const HEARTBEAT_MS = 1000;

/** Whether `holder` holds the task's lease now. */
export function holdsLease(record: TaskRecord | undefined, holder: string): boolean {
  return record?.lease?.holder === holder;
}

/** Whether no runner holds the lease: never taken, or not renewed in time. */
export function leaseIsFree(record: TaskRecord, now: number): boolean {
  return record.lease === undefined || record.lease.expiresAt <= now;
}

/**
 * Takes or renews the lease for `holder`: when it is free, or already
 * theirs. A lease someone else holds and renews in time is left alone, and
 * a finished task has no job to lease.
 */
export function claimLease(
  record: TaskRecord,
  holder: string,
  now: number,
  leaseMs: number,
): TaskRecord {
  if (isTerminal(record.status)) return record;
  if (!holdsLease(record, holder) && !leaseIsFree(record, now)) return record;
  return { ...record, lease: { holder, expiresAt: now + leaseMs } };
}

/** Ends the lease: the job has ended, so nobody should take it over. */
export function dropLease(record: TaskRecord): TaskRecord {
  if (record.lease === undefined) return record;
  const { lease: _dropped, ...rest } = record;
  return rest;
}

/** Saves a job's progress. A finished task keeps what it has. */
export function withCheckpoint(
  record: TaskRecord,
  data: unknown,
  label: string,
  now: number,
): TaskRecord {
  if (isTerminal(record.status)) return record;
  return { ...record, checkpoint: { data, label, savedAt: now }, lastUpdatedAt: now };
}

/** Notes that a fresh runner took the job over (and who from), and says so in `statusMessage`. */
export function markResumed(
  record: TaskRecord,
  statusMessage: string,
  now: number,
  takeover?: Takeover,
): TaskRecord {
  if (isTerminal(record.status)) return record;
  return {
    ...record,
    resumes: (record.resumes ?? 0) + 1,
    statusMessage,
    lastUpdatedAt: now,
    ...(takeover ? { takeover } : {}),
  };
}

/** Remembers answers the job took, so a resumed job gets them back (T14: keys are never reused). */
export function rememberTaken(record: TaskRecord, answers: Record<string, unknown>): TaskRecord {
  return { ...record, takenResponses: { ...record.takenResponses, ...answers } };
}
