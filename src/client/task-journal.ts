/**
 * Keeps the page's facts about followed tasks in step with their actors,
 * and the wire log, so a reload carries on (T12, M5). Persist facts, not
 * actors (STYLE.md): each snapshot is reduced to a `StoredTask`; on load a
 * fresh actor is seeded from it (`resumeInputOf`), or, for a task the page
 * stopped following, rebuilt in its final state (`finishedActor`).
 *
 * Task facts are written within the same tick they change, so a reload
 * right after an answer never asks it again. Wire messages are written in
 * batches. A failed write (storage full) leaves what was stored before
 * untouched and is reported through `onProblem`.
 */
import { createActor, type SnapshotFrom } from 'xstate';
import { taskMachine, type TaskMachineInput } from '../machines/task-machine.ts';
import type { DetailedTask } from '../protocol/task.ts';
import {
  storageProblemOf,
  type PageStore,
  type StorageProblem,
  type StoredTask,
  type StoredWireEntry,
} from '../store/page-store.ts';
import type { WireEntry } from './rpc-client.ts';
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
 * Whether `next` holds other facts than `last` (as JSON keeps them). Every
 * poll changes `polls` or `nextPollAt`, so those are compared first and the
 * whole record only when they agree: a JSON text per snapshot was a cost.
 */
function storedDiffers(last: StoredTask, next: StoredTask): boolean {
  if (
    last.polls !== next.polls ||
    last.nextPollAt !== next.nextPollAt ||
    last.cancelRequested !== next.cancelRequested ||
    last.outcome !== next.outcome
  )
    return true;
  return JSON.stringify(last) !== JSON.stringify(next);
}

/** Input for a fresh actor that carries on following a stored task. */
export function resumeInputOf(stored: StoredTask): TaskMachineInput {
  return {
    task: stored.task,
    toolName: stored.toolName,
    resume: {
      answeredKeys: stored.answeredKeys,
      unsent: stored.unsentResponses,
      cancelRequested: stored.cancelRequested,
      polls: stored.polls,
      nextPollAt: stored.nextPollAt,
    },
  };
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
  const input = resumeInputOf(stored);
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

export interface TaskJournalOptions {
  /** Told what went wrong when storage fails, and `undefined` once writing works again. */
  onProblem?: (problem: StorageProblem | undefined) => void;
  /** How long wire messages gather before they are written together. */
  wireBatchMs?: number;
  /** How long a load may wait for storage (a blocked open waits forever) before the page starts without it. */
  readTimeoutMs?: number;
}

export class TaskJournal {
  readonly #store: PageStore;
  readonly #onProblem: (problem: StorageProblem | undefined) => void;
  readonly #wireBatchMs: number;
  readonly #readTimeoutMs: number;
  readonly #tracked = new Map<string, () => void>();
  /** Latest facts per task not yet written. */
  readonly #dirty = new Map<string, StoredTask>();
  #taskWrite: Promise<void> | undefined;
  #wire: StoredWireEntry[] = [];
  #wireTimer: ReturnType<typeof setTimeout> | undefined;
  #wireWrite: Promise<void> = Promise.resolve();
  #problem: StorageProblem | undefined;

  constructor(store: PageStore, options: TaskJournalOptions = {}) {
    this.#store = store;
    this.#onProblem = options.onProblem ?? (() => {});
    this.#wireBatchMs = options.wireBatchMs ?? 250;
    this.#readTimeoutMs = options.readTimeoutMs ?? 5000;
  }

  /** What is wrong with storage now, if anything. */
  get problem(): StorageProblem | undefined {
    return this.#problem;
  }

  /** Reports a problem seen outside a write (a blocked open). */
  reportProblem(problem: StorageProblem): void {
    this.#setProblem(problem);
  }

  /** Every stored task, oldest followed first; empty when storage cannot be read. */
  async load(): Promise<StoredTask[]> {
    return this.#reading(() => this.#store.tasks());
  }

  /** The kept wire log, oldest first. */
  async loadWire(): Promise<StoredWireEntry[]> {
    return this.#reading(() => this.#store.wire());
  }

  /** Writes the task's facts now, and again whenever its actor changes them. */
  track(actor: TaskActor, facts: FollowFacts): void {
    const taskId = actor.getSnapshot().context.taskId;
    this.#tracked.get(taskId)?.();
    let written: StoredTask | undefined;
    let context: TaskSnapshot['context'] | undefined;
    const write = (snapshot: TaskSnapshot): void => {
      // "Stop following" deletes the task; stopping the actor (page closing) must change nothing.
      if (snapshot.value === 'forgotten' || snapshot.status === 'stopped') return;
      // The facts kept come from the context alone, and XState keeps the same context object
      // through a step that assigns nothing (a state entered, a timer armed): nothing to write.
      if (snapshot.context === context) return;
      context = snapshot.context;
      const stored = storedTaskOf(snapshot, facts);
      if (written && !storedDiffers(written, stored)) return;
      written = stored;
      this.#queue(stored);
    };
    write(actor.getSnapshot());
    const subscription = actor.subscribe({ next: write, error: () => {} });
    this.#tracked.set(taskId, () => subscription.unsubscribe());
  }

  /** Stops writing these tasks and deletes them: the user dismissed them. */
  async forget(taskIds: readonly string[]): Promise<void> {
    for (const id of taskIds) {
      this.#tracked.get(id)?.();
      this.#tracked.delete(id);
      this.#dirty.delete(id);
    }
    await this.#taskWrite;
    await this.#writing(() => this.#store.deleteTasks(taskIds));
  }

  /** Keeps one wire message; messages are written in batches. */
  recordWire(entry: WireEntry): void {
    const { at, direction, message, reissueOf, http } = entry;
    this.#wire.push({
      at,
      direction,
      message,
      ...(reissueOf !== undefined ? { reissueOf } : {}),
      ...(http ? { http } : {}),
    });
    this.#wireTimer ??= setTimeout(() => void this.#flushWire(), this.#wireBatchMs);
  }

  /** Writes everything pending now. */
  async flush(): Promise<void> {
    clearTimeout(this.#wireTimer);
    await Promise.all([this.#flushTasks(), this.#flushWire()]);
  }

  /** Stops tracking every task and empties the store: tasks and wire log. */
  async clear(): Promise<void> {
    for (const stop of this.#tracked.values()) stop();
    this.#tracked.clear();
    this.#dirty.clear();
    this.#wire = [];
    clearTimeout(this.#wireTimer);
    this.#wireTimer = undefined;
    await Promise.all([this.#taskWrite, this.#wireWrite]);
    await this.#writing(() => this.#store.clear());
  }

  #queue(stored: StoredTask): void {
    this.#dirty.set(stored.taskId, stored);
    // Same tick: a reload right after an answer must find it written.
    this.#taskWrite ??= this.#drainTasks();
  }

  /**
   * Writes the changed facts, one transaction at a time: what changes while
   * one is being written goes into the next. A transaction per change piled
   * up behind each other when many tasks were polled quickly, and a reload
   * lost the ones still queued; now at most one write waits behind the one
   * in flight, however busy the page is.
   */
  async #drainTasks(): Promise<void> {
    await Promise.resolve(); // Gather this tick's changes into one write.
    try {
      while (this.#dirty.size > 0) {
        const batch = [...this.#dirty.values()];
        this.#dirty.clear();
        const ok = await this.#writing(() => this.#store.putTasks(batch));
        if (ok) continue;
        // Not written: keep them for the next try, unless newer facts came meanwhile.
        for (const stored of batch)
          if (!this.#dirty.has(stored.taskId)) this.#dirty.set(stored.taskId, stored);
        return;
      }
    } finally {
      this.#taskWrite = undefined;
    }
  }

  async #flushTasks(): Promise<void> {
    await this.#taskWrite;
    if (this.#dirty.size === 0) return;
    this.#taskWrite = this.#drainTasks();
    await this.#taskWrite;
  }

  async #flushWire(): Promise<void> {
    this.#wireTimer = undefined;
    const batch = this.#wire;
    this.#wire = [];
    if (batch.length === 0) return this.#wireWrite;
    // One batch at a time, in order, so the log keeps its order.
    this.#wireWrite = this.#wireWrite.then(async () => {
      await this.#writing(() => this.#store.appendWire(batch));
    });
    return this.#wireWrite;
  }

  async #writing(write: () => Promise<void>): Promise<boolean> {
    try {
      await write();
      if (this.#problem?.kind !== 'blocked') this.#setProblem(undefined);
      return true;
    } catch (error) {
      this.#setProblem(storageProblemOf(error));
      return false;
    }
  }

  async #reading<T>(read: () => Promise<T[]>): Promise<T[]> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const slow = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${this.#readTimeoutMs} ms`)),
        this.#readTimeoutMs,
      );
    });
    try {
      return await Promise.race([read(), slow]);
    } catch (error) {
      // Start without what was kept rather than not at all; what is stored stays stored.
      this.#setProblem(storageProblemOf(error));
      return [];
    } finally {
      clearTimeout(timer);
    }
  }

  #setProblem(problem: StorageProblem | undefined): void {
    if (problem?.message === this.#problem?.message) return;
    this.#problem = problem;
    this.#onProblem(problem);
  }
}
