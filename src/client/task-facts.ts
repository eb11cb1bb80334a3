/**
 * The facts the journal keeps about a followed task, read from its actor
 * and turned back into one (persist facts, not actors: STYLE.md): a
 * snapshot is reduced to a `StoredTask`; a step's change is sorted into
 * what a reload needs at once and what may wait; after a reload a fresh
 * actor is seeded from the facts, or, for a task the page stopped
 * following, rebuilt in its final state.
 */
import { createActor, type SnapshotFrom } from 'xstate';
import {
  pollIntervalMs,
  taskMachine,
  type TaskMachineContext,
  type TaskMachineInput,
} from '../machines/task-machine.ts';
import type { DetailedTask } from '../protocol/task.ts';
import type { StoredTask } from '../store/page-store.ts';
import type { StoredProgress } from '../store/task-progress.ts';
import type { TaskActor } from './task-follower.ts';

type TaskSnapshot = SnapshotFrom<typeof taskMachine>;

/** What the journal keeps about a task that its actor does not know. */
export interface FollowFacts {
  toolName: string;
  arguments: Record<string, unknown>;
  identity: string;
  followedAt: number;
}

/** The facts to keep about a task, read from its actor's snapshot. */
export function storedTaskOf(snapshot: TaskSnapshot, facts: FollowFacts): StoredTask {
  const context = snapshot.context;
  // A CreateTaskResult is a DetailedTask without the optional fields (T7, T10).
  const task: DetailedTask = context.task;
  return {
    taskId: context.taskId,
    toolName: facts.toolName,
    arguments: facts.arguments,
    identity: facts.identity,
    task,
    // The machine's own schedule (T12): absent while a tasks/get is out and once the task ended.
    ...(context.nextPollAt !== undefined ? { nextPollAt: context.nextPollAt } : {}),
    polls: context.polls,
    answeredKeys: [...context.answeredKeys],
    // Answers in a tasks/update that was not acknowledged count as unsent: sending twice is harmless (T15).
    unsentResponses: { ...context.inFlight, ...context.unsent },
    cancelRequested: context.cancelRequested,
    ...(context.outcome ? { outcome: context.outcome } : {}),
    ...(context.lastError ? { lastError: context.lastError } : {}),
    followedAt: facts.followedAt,
  };
}

/**
 * The task's progress alone, read from its actor's snapshot: what a
 * `progress` change (below) changed, kept apart from the task's record and
 * written with every other task's in one record (`task-progress.ts`).
 */
export function progressOf(snapshot: TaskSnapshot, revision: number): StoredProgress {
  const context = snapshot.context;
  // A CreateTaskResult is a DetailedTask without the optional fields (T7, T10).
  const task: DetailedTask = context.task;
  return {
    revision,
    polls: context.polls,
    ...(context.nextPollAt !== undefined ? { nextPollAt: context.nextPollAt } : {}),
    task,
  };
}

/**
 * How one step changed the facts kept about a task:
 * - `decisive`: something a reload must find (written within the same
 *   tick): the task's first facts, an answer (T14), a response not yet
 *   acknowledged (T15), a cancel intent (T17), an outcome, a new status,
 *   interval, TTL or question from the server (T6, T10), an error;
 * - `progress`: only the poll count, the schedule, or the report's progress
 *   (its statusMessage and time). Every poll changes these, so they may
 *   wait; a reload that finds them stale still honours the interval
 *   ({@link resumedPollAt});
 * - `none`: nothing kept changed (a state entered, a timer armed, the link's news).
 */
export type FactsChange = 'decisive' | 'progress' | 'none';

/** What changed from `last` to `next` (`last` undefined: the first facts seen). */
export function factsChange(
  last: TaskMachineContext | undefined,
  next: TaskMachineContext,
): FactsChange {
  if (last === next) return 'none';
  if (
    last === undefined ||
    last.cancelRequested !== next.cancelRequested ||
    last.outcome !== next.outcome ||
    !same(last.answeredKeys, next.answeredKeys) ||
    !same(last.unsent, next.unsent) ||
    !same(last.inFlight, next.inFlight) ||
    !same(last.lastError, next.lastError) ||
    reportDecides(last.task, next.task)
  )
    return 'decisive';
  return last.polls !== next.polls || last.nextPollAt !== next.nextPollAt || last.task !== next.task
    ? 'progress'
    : 'none';
}

/** Whether a new report says more than progress: what a reload acts on. */
function reportDecides(last: TaskMachineContext['task'], next: TaskMachineContext['task']) {
  if (last === next) return false;
  // A CreateTaskResult is a DetailedTask without the optional fields (T7, T10).
  const a: DetailedTask = last;
  const b: DetailedTask = next;
  return (
    a.status !== b.status ||
    a.pollIntervalMs !== b.pollIntervalMs ||
    a.ttlMs !== b.ttlMs ||
    a.createdAt !== b.createdAt ||
    !same(a.inputRequests, b.inputRequests) ||
    !same(a.result, b.result) ||
    !same(a.error, b.error)
  );
}

/** The same value as JSON keeps it; most steps keep the very object, so the text is rarely made. */
function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * When a resumed task polls first (T12), `now` being the new page's clock.
 * A schedule still ahead, or one the closing page wrote as its last word
 * (`keptAtClose`), is kept: the first poll waits only for what is left. A
 * schedule already past may be older than the last polls (progress is
 * written now and then): the old page may have polled just before it
 * went, so the first poll waits a whole interval rather than risk polling
 * faster than the server asked. Absent (a tasks/get was out), the machine
 * waits a whole interval too.
 */
export function resumedPollAt(stored: StoredTask, now: number): number | undefined {
  const { nextPollAt } = stored;
  if (nextPollAt === undefined || nextPollAt > now || stored.keptAtClose) return nextPollAt;
  return now + pollIntervalMs({ task: stored.task });
}

function inputOf(stored: StoredTask, nextPollAt: number | undefined): TaskMachineInput {
  return {
    task: stored.task,
    toolName: stored.toolName,
    resume: {
      answeredKeys: stored.answeredKeys,
      unsent: stored.unsentResponses,
      cancelRequested: stored.cancelRequested,
      polls: stored.polls,
      nextPollAt,
    },
  };
}

/** Input for a fresh actor that carries on following a stored task, at `now` on the page's clock. */
export function resumeInputOf(stored: StoredTask, now: number): TaskMachineInput {
  return inputOf(stored, resumedPollAt(stored, now));
}

/** The facts a stored task was followed with. */
export function followFactsOf(stored: StoredTask): FollowFacts {
  return {
    toolName: stored.toolName,
    arguments: stored.arguments,
    identity: stored.identity,
    followedAt: stored.followedAt,
  };
}

/**
 * An actor already in the final state a stored task ended in, for a card
 * that stays listed until cleared. Nothing runs: it is done from the start.
 */
export function finishedActor(stored: StoredTask): TaskActor | undefined {
  if (!stored.outcome) return undefined;
  const input = inputOf(stored, undefined);
  // Never started: only its context is read, the work it would invoke never runs.
  const context = createActor(taskMachine, { input }).getSnapshot().context;
  const snapshot = taskMachine.resolveState({
    value: stored.outcome,
    context: {
      ...context,
      nextPollAt: undefined,
      outcome: stored.outcome,
      ...(stored.lastError ? { lastError: stored.lastError } : {}),
    },
  });
  return createActor(taskMachine, { snapshot, input }).start();
}
