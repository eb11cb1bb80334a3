/**
 * One followed task as the UI reads it: the task actor's latest snapshot,
 * split into what the SERVER said (`serverStatus`, from the last report)
 * and what the CLIENT is doing (`activity`, the machine's region states).
 * They differ on purpose: a cancel the client requested can still end
 * `completed` (T17).
 */
import type { SnapshotFrom } from 'xstate';
import type { TaskActor } from '../../client/task-follower.ts';
import {
  createdAtMs,
  pollIntervalMs,
  ttlMs,
  type LinkTrouble,
  type TaskOutcome,
  type taskMachine,
} from '../../machines/task-machine.ts';
import type { ElicitResult } from '../../protocol/elicitation.ts';
import { jobProgressOf, type JobProgress } from '../../protocol/job-progress.ts';
import type {
  CallToolResult,
  DetailedTask,
  InputRequest,
  RpcError,
  TaskStatus,
} from '../../protocol/task.ts';
import { TaskHistory } from './task-history.svelte.ts';

type TaskSnapshot = SnapshotFrom<typeof taskMachine>;

/** The machine's parallel regions while the task is active, or its final state. */
export type TaskActivity =
  | { done: false; lifecycle: string; input: string; cancel: string; link: string }
  | { done: true; final: string };

export class FollowedTask {
  readonly taskId: string;
  readonly toolName: string;
  readonly #actor: TaskActor;
  #snapshot: TaskSnapshot;
  /** Every step the actor took, for the statechart's history stepping. */
  readonly history: TaskHistory;

  constructor(actor: TaskActor) {
    this.#actor = actor;
    this.#snapshot = $state.raw(actor.getSnapshot());
    this.history = new TaskHistory(actor);
    this.taskId = this.#snapshot.context.taskId;
    this.toolName = this.#snapshot.context.toolName;
    actor.subscribe({
      next: (snapshot) => {
        this.#snapshot = snapshot;
      },
      error: (error) => console.error(`[task ${this.taskId}] actor failed`, error),
    });
  }

  /** The actor's current state value, as XState reports it (the statechart is checked against it). */
  get stateValue(): TaskSnapshot['value'] {
    return this.#snapshot.value;
  }

  /** The status the server last reported (T6); only the server changes it. */
  get serverStatus(): TaskStatus {
    return this.#snapshot.context.task.status;
  }

  get statusMessage(): string | undefined {
    return this.#snapshot.context.task.statusMessage;
  }

  get activity(): TaskActivity {
    const value = this.#snapshot.value;
    if (typeof value === 'string') return { done: true, final: value };
    return { done: false, ...value.active };
  }

  /** While the client's link is down: why, since when, and its reconnect attempts (C8). */
  get link(): LinkTrouble | undefined {
    return this.#snapshot.context.link;
  }

  /** The actor has stopped: an outcome was reached or the user forgot the task. */
  get done(): boolean {
    return this.#snapshot.status !== 'active';
  }

  get outcome(): TaskOutcome | undefined {
    return this.#snapshot.context.outcome;
  }

  get forgotten(): boolean {
    return this.#snapshot.value === 'forgotten';
  }

  get cancelRequested(): boolean {
    return this.#snapshot.context.cancelRequested;
  }

  get polls(): number {
    return this.#snapshot.context.polls;
  }

  get pollIntervalMs(): number {
    return pollIntervalMs(this.#snapshot.context);
  }

  get ttlMs(): number | null {
    return ttlMs(this.#snapshot.context);
  }

  /** Epoch ms of the server's `createdAt`. */
  get createdAt(): number {
    return createdAtMs(this.#snapshot.context);
  }

  get lastUpdatedAt(): string {
    return this.#snapshot.context.task.lastUpdatedAt;
  }

  /**
   * Input requests waiting for this user, each key once however often polls
   * repeat it (T14). None once following ended: nobody would send the answer.
   */
  get pendingInputs(): [string, InputRequest][] {
    if (this.done) return [];
    return Object.entries(this.#snapshot.context.pendingInputs);
  }

  /** The server's report on its durable job: last checkpoint, and take-overs by a fresh worker. */
  get jobProgress(): JobProgress | undefined {
    return jobProgressOf(this.#snapshot.context.task);
  }

  get answeredKeys(): readonly string[] {
    return this.#snapshot.context.answeredKeys;
  }

  /** The tool's result, once `completed` (T10, T11). */
  get result(): CallToolResult | undefined {
    // A CreateTaskResult is a DetailedTask without the optional fields (T7, T10).
    const task: DetailedTask = this.#snapshot.context.task;
    return task.result;
  }

  /** The JSON-RPC error of a `failed` task (T10). */
  get error(): RpcError | undefined {
    const task: DetailedTask = this.#snapshot.context.task;
    return task.error;
  }

  /** The last request that went wrong (transport trouble or a refusal). */
  get lastError(): { code?: number; message: string } | undefined {
    return this.#snapshot.context.lastError;
  }

  answer(key: string, response: ElicitResult): void {
    this.#actor.send({ type: 'task.answer', responses: { [key]: response } });
  }

  cancel(): void {
    this.#actor.send({ type: 'task.cancel' });
  }

  /** Stops following; the server keeps the task until its TTL (T17). */
  forget(): void {
    this.#actor.send({ type: 'task.forget' });
  }
}
