/**
 * The task machine's data: what it is started with, what it keeps, and the
 * events it takes. Each fact is kept once: what the server said lives in
 * `task` (read it through the selectors in `task-machine-timing.ts`), the
 * rest is the client's own bookkeeping.
 */
import type { CreateTaskResult, DetailedTask, InputRequest } from '../protocol/task.ts';

/** What `createActor(taskMachine, { input })` takes. */
export interface TaskMachineInput {
  /** The handle (T7), or the last report when resuming a task followed before (T12). */
  task: CreateTaskResult | DetailedTask;
  toolName: string;
  /** Wall clock for TTL checks and `nextPollAt` (defaults to `Date.now`), so tests can fake time. */
  now?: () => number;
  /** Facts kept from an earlier page, when resuming after a reload (T12). */
  resume?: TaskResume;
}

/**
 * What a page keeps about a followed task so a fresh actor carries on where
 * the last one stopped (persist facts, not actors): keys answered are never
 * asked again (T14), answers not yet acknowledged are sent, a cancel intent
 * is sent again (T17: harmless, the server ignores a repeat).
 */
export interface TaskResume {
  answeredKeys: readonly string[];
  /** Answers given whose tasks/update was not acknowledged. */
  unsent: Record<string, unknown>;
  cancelRequested: boolean;
  polls: number;
  /**
   * The last page's `context.nextPollAt`: the first poll waits only for what
   * is left (T12). Absent (a tasks/get was out), it waits a whole interval.
   */
  nextPollAt?: number | undefined;
}

export type TaskOutcome = 'completed' | 'failed' | 'cancelled' | 'expired' | 'gone';

/** Context; the first block is read by the UI, the rest is bookkeeping. */
export interface TaskMachineContext {
  taskId: string;
  toolName: string;
  /** Last report: what the server last said (status, interval, TTL, createdAt). */
  task: DetailedTask | CreateTaskResult;
  /** Input requests shown to the user and not yet answered (T14). */
  pendingInputs: Record<string, InputRequest>;
  /** Keys answered here; never shown again, however often polls repeat them (T14). */
  answeredKeys: string[];
  /** Client intent, separate from the server status (T17). */
  cancelRequested: boolean;
  /** tasks/get requests issued. */
  polls: number;
  /**
   * When (epoch ms, by `now`) the next tasks/get is due: set whenever a poll
   * or a backoff retry is scheduled (T12), kept while a due poll waits for
   * the link (M3), absent while a tasks/get is out and once the task ended.
   * The page stores it so a reload keeps the schedule.
   */
  nextPollAt?: number | undefined;
  lastError?: { code?: number; message: string };
  outcome?: TaskOutcome;
  now: () => number;
  pollFailures: number;
  /** Answers not yet handed to tasks/update, and those in the current attempt. */
  unsent: Record<string, unknown>;
  inFlight: Record<string, unknown>;
  updateFailures: number;
  cancelFailures: number;
  /**
   * When (`now()`) the latest tasks/get was sent, or last re-sent (C8): the
   * next is due one interval later (T12); T13's verdict waits for one sent after the TTL.
   */
  lastPollSentAt?: number;
  /** When (`now()`) the latest tasks/get was answered: the next reaches the server no sooner than an interval less its slack later (T12). */
  lastAnsweredAt?: number;
  /** While the link is down: since when (`now()`), why, and the client's reconnect attempts. */
  link?: LinkTrouble;
}

/** What the client said about its broken link (C8: it reconnects with backoff). */
export interface LinkTrouble {
  since: number;
  reason: string;
  attempt: number;
  /** When the client's next connect attempt starts (the client's clock). */
  retryAt?: number;
}

export type TaskMachineEvent =
  // The answer to the tasks/get the machine's `sendPoll` made (T12), or its failure: a
  // JSON-RPC error object (T13: -32602) or anything else for transport trouble (C8).
  | { type: 'poll.answered'; task: DetailedTask }
  | { type: 'poll.failed'; error: unknown }
  // That tasks/get went out again (re-issued, C8): the next poll is paced from now (T12).
  | { type: 'poll.resent' }
  | { type: 'task.answer'; responses: Record<string, unknown> }
  | { type: 'task.cancel' }
  | { type: 'task.notification'; task: DetailedTask }
  | { type: 'task.forget' }
  // Raised by the machine once, at start: sends what a reload carried over (T15, T17).
  | { type: 'task.started' }
  // From the client's connection; requests in flight meanwhile are re-issued under new ids (C8).
  | { type: 'connection.lost'; reason: string }
  | { type: 'connection.retrying'; attempt: number; retryAt: number }
  | { type: 'connection.restored' };
