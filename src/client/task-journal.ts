/**
 * Keeps the page's facts about followed tasks in step with their actors,
 * and the wire log, so a reload carries on (T12, M5). What is kept, and how
 * it seeds a fresh actor, is `task-facts.ts`; this is when it is written.
 *
 * What a reload must find (an answer, an unsent response, a cancel intent,
 * an outcome, a new status: `factsChange` says `decisive`) is written within
 * the same tick, so a reload right after an answer never asks it again.
 * Progress alone (the poll count, the schedule, the report's progress text)
 * changes on every poll of every task, so it is written at most once per
 * `progressWriteMs`, every task's in one record (`store/task-progress.ts`:
 * one write a second, not one per task), and into every task's record when
 * the page closes. Every write is numbered (`revision`), so a reload can
 * tell whether a task's progress is newer than its record. Wire messages
 * are written in batches. A failed write (storage full) leaves what was
 * stored before untouched, is reported through `onProblem`, and is tried
 * again.
 *
 * Wire messages are written at most once per `wireBatchMs` (250 ms), and
 * of what gathered meanwhile only the newest `WIRE_LOG_LIMIT`: the store
 * keeps no more, so older ones would be cloned only to be deleted in the
 * same write. The page closing writes what is pending, but a reload does
 * not wait for that write (IndexedDB may drop it as the page goes): the
 * batch stays short so a reload loses at most its last quarter second, and
 * each write stays a short task.
 */
import type { SnapshotFrom } from 'xstate';
import { realTimers, type Timers } from '../clock/timers.ts';
import type { taskMachine } from '../machines/task-machine.ts';
import {
  storageProblemOf,
  WIRE_LOG_LIMIT,
  type PageStore,
  type StorageProblem,
  type StoredTask,
  type StoredWireEntry,
} from '../store/page-store.ts';
import type { StoredProgress } from '../store/task-progress.ts';
import type { WireEntry } from './rpc-client.ts';
import {
  factsChange,
  progressOf,
  storedTaskOf,
  type FactsChange,
  type FollowFacts,
} from './task-facts.ts';
import type { TaskActor } from './task-follower.ts';

type TaskSnapshot = SnapshotFrom<typeof taskMachine>;

/** A task the journal keeps in step: its facts are read from `snapshot` when written. */
interface Tracked {
  facts: FollowFacts;
  /** The latest snapshot seen (never a stopped or forgotten one). */
  snapshot: TaskSnapshot;
  stop(): void;
}

export interface TaskJournalOptions {
  /** Told what went wrong when storage fails, and `undefined` once writing works again. */
  onProblem?: (problem: StorageProblem | undefined) => void;
  /** How long wire messages gather before they are written together (250 ms by default). */
  wireBatchMs?: number;
  /** At most how often the tasks' progress alone (poll count, schedule) is written. */
  progressWriteMs?: number;
  /** How long a load may wait for storage (a blocked open waits forever) before the page starts without it. */
  readTimeoutMs?: number;
  /** The timers that batch writes: real time (a paused world clock must not hold the page's writes back). */
  timers?: Timers;
}

export class TaskJournal {
  readonly #store: PageStore;
  readonly #onProblem: (problem: StorageProblem | undefined) => void;
  readonly #wireBatchMs: number;
  readonly #progressWriteMs: number;
  readonly #readTimeoutMs: number;
  readonly #timers: Timers;
  readonly #tracked = new Map<string, Tracked>();
  /** Tasks whose facts go into the next write: something a reload needs changed. */
  readonly #due = new Set<string>();
  /** Tasks whose progress alone changed: written when the progress timer fires. */
  readonly #progress = new Set<string>();
  /** Tasks whose record could not be written: written again when the progress timer fires. */
  readonly #unwritten = new Set<string>();
  #progressTimer: unknown;
  #progressWrite: Promise<void> | undefined;
  /** Writes started (tasks or progress), counted on from the largest stored: each one's `revision`. */
  #revision = 0;
  #taskWrite: Promise<void> | undefined;
  #wire: StoredWireEntry[] = [];
  #wireTimer: unknown;
  #wireWrite: Promise<void> = Promise.resolve();
  #problem: StorageProblem | undefined;

  constructor(store: PageStore, options: TaskJournalOptions = {}) {
    this.#store = store;
    this.#onProblem = options.onProblem ?? (() => {});
    this.#wireBatchMs = options.wireBatchMs ?? 250;
    this.#progressWriteMs = options.progressWriteMs ?? 1000;
    this.#readTimeoutMs = options.readTimeoutMs ?? 5000;
    this.#timers = options.timers ?? realTimers;
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
    const tasks = await this.#reading(() => this.#store.tasks());
    // What this page writes must count as newer than anything an earlier page wrote.
    for (const task of tasks) this.#revision = Math.max(this.#revision, task.revision ?? 0);
    return tasks;
  }

  /** The kept wire log, oldest first. */
  async loadWire(): Promise<StoredWireEntry[]> {
    return this.#reading(() => this.#store.wire());
  }

  /** Writes the task's facts now, and again whenever its actor changes them. */
  track(actor: TaskActor, facts: FollowFacts): void {
    const taskId = actor.getSnapshot().context.taskId;
    this.#tracked.get(taskId)?.stop();
    const tracked: Tracked = { facts, snapshot: actor.getSnapshot(), stop: () => {} };
    this.#tracked.set(taskId, tracked);
    let context: TaskSnapshot['context'] | undefined;
    const seen = (snapshot: TaskSnapshot): void => {
      // "Stop following" deletes the task; stopping the actor (page closing) must change nothing.
      if (snapshot.value === 'forgotten' || snapshot.status === 'stopped') return;
      const change = factsChange(context, snapshot.context);
      context = snapshot.context;
      tracked.snapshot = snapshot;
      this.#changed(taskId, change);
    };
    seen(actor.getSnapshot());
    const subscription = actor.subscribe({ next: seen, error: () => {} });
    tracked.stop = () => subscription.unsubscribe();
  }

  /** Stops writing these tasks and deletes them: the user dismissed them. */
  async forget(taskIds: readonly string[]): Promise<void> {
    for (const id of taskIds) {
      this.#tracked.get(id)?.stop();
      this.#tracked.delete(id);
      this.#due.delete(id);
      this.#progress.delete(id);
      this.#unwritten.delete(id);
    }
    await this.#taskWrite;
    await this.#writing(() => this.#store.deleteTasks(taskIds));
  }

  /** Keeps one wire message; messages are written in batches. */
  recordWire(entry: WireEntry): void {
    const { at, direction, message, reissueOf, http } = entry;
    // Set one by one, not spread from `{}`s: one object per message.
    const kept: StoredWireEntry = { at, direction, message };
    if (reissueOf !== undefined) kept.reissueOf = reissueOf;
    if (http) kept.http = http;
    this.#wire.push(kept);
    // Beyond the limit the oldest pending ones would never be kept: trimmed now and then, not per message.
    if (this.#wire.length > 2 * WIRE_LOG_LIMIT) this.#wire = this.#wire.slice(-WIRE_LOG_LIMIT);
    this.#wireTimer ??= this.#timers.setTimeout(() => void this.#flushWire(), this.#wireBatchMs);
  }

  /** Writes everything pending now, progress included. */
  async flush(): Promise<void> {
    await this.#progressWrite;
    await Promise.all([this.#progressDue(), this.#flushTasks(), this.#flushWire()]);
  }

  /**
   * The page goes away: every task still followed is written now, with its
   * latest facts, marked as the page's last word (`keptAtClose`: a reload
   * may keep its schedule, T12), in one write that waits for none in
   * flight (IndexedDB still runs them in order), and the pending wire batch.
   */
  close(): Promise<void> {
    this.#timers.clearTimeout(this.#progressTimer);
    this.#progressTimer = undefined;
    const revision = ++this.#revision;
    const last = [...this.#tracked.values()].flatMap((tracked): StoredTask[] => {
      const stored = { ...storedTaskOf(tracked.snapshot, tracked.facts), revision };
      if (tracked.snapshot.status === 'active') return [{ ...stored, keptAtClose: true }];
      const { taskId } = stored;
      const pending = this.#due.has(taskId) || this.#progress.has(taskId);
      return pending || this.#unwritten.has(taskId) ? [stored] : [];
    });
    this.#due.clear();
    this.#progress.clear();
    this.#unwritten.clear();
    const tasks = last.length > 0 ? this.#writing(() => this.#store.putTasks(last)) : undefined;
    return Promise.all([tasks, this.#flushWire()]).then(() => {});
  }

  /** Stops tracking every task and empties the store: tasks and wire log. */
  async clear(): Promise<void> {
    for (const tracked of this.#tracked.values()) tracked.stop();
    this.#tracked.clear();
    this.#due.clear();
    this.#progress.clear();
    this.#unwritten.clear();
    this.#timers.clearTimeout(this.#progressTimer);
    this.#progressTimer = undefined;
    this.#wire = [];
    this.#timers.clearTimeout(this.#wireTimer);
    this.#wireTimer = undefined;
    await Promise.all([this.#taskWrite, this.#progressWrite, this.#wireWrite]);
    await this.#writing(() => this.#store.clear());
  }

  #changed(taskId: string, change: FactsChange): void {
    if (change === 'none') return;
    if (change === 'decisive') {
      this.#progress.delete(taskId);
      this.#unwritten.delete(taskId);
      this.#due.add(taskId);
      // Same tick: a reload right after an answer must find it written.
      this.#taskWrite ??= this.#drainTasks();
      return;
    }
    // Already due: the next write takes its latest facts anyway.
    if (this.#due.has(taskId) || this.#unwritten.has(taskId)) return;
    this.#progress.add(taskId);
    this.#armProgress();
  }

  #armProgress(): void {
    this.#progressTimer ??= this.#timers.setTimeout(
      () => void this.#progressDue(),
      this.#progressWriteMs,
    );
  }

  /**
   * The progress waiting is written now, every task's in one record, and
   * the records that could not be written are tried again. One progress
   * write at a time: what changes meanwhile waits for the next timer.
   */
  #progressDue(): Promise<void> {
    this.#timers.clearTimeout(this.#progressTimer);
    this.#progressTimer = undefined;
    for (const id of this.#unwritten) this.#due.add(id);
    this.#unwritten.clear();
    if (this.#due.size > 0) this.#taskWrite ??= this.#drainTasks();
    if (this.#progress.size === 0) return this.#progressWrite ?? Promise.resolve();
    this.#progressWrite ??= this.#writeProgress().finally(() => {
      this.#progressWrite = undefined;
      if (this.#progress.size > 0) this.#armProgress();
    });
    return this.#progressWrite;
  }

  async #writeProgress(): Promise<void> {
    const revision = ++this.#revision;
    const ids = [...this.#progress];
    this.#progress.clear();
    const progress = new Map<string, StoredProgress>();
    for (const id of ids) {
      const tracked = this.#tracked.get(id);
      if (tracked) progress.set(id, progressOf(tracked.snapshot, revision));
    }
    if (await this.#writing(() => this.#store.putProgress(progress))) return;
    // Not written: tried again with the next progress write, unless a record write took it meanwhile.
    for (const id of ids)
      if (this.#tracked.has(id) && !this.#due.has(id) && !this.#unwritten.has(id))
        this.#progress.add(id);
  }

  /**
   * Writes the due tasks' latest facts, one transaction at a time: what
   * changes while one is being written goes into the next. A transaction
   * per change piled up behind each other when many tasks were polled
   * quickly, and a reload lost the ones still queued; now at most one write
   * waits behind the one in flight, however busy the page is.
   */
  async #drainTasks(): Promise<void> {
    await Promise.resolve(); // Gather this tick's changes into one write.
    try {
      while (this.#due.size > 0) {
        const ids = [...this.#due];
        this.#due.clear();
        const revision = ++this.#revision;
        const batch = ids.flatMap((id) => {
          const tracked = this.#tracked.get(id);
          return tracked ? [{ ...storedTaskOf(tracked.snapshot, tracked.facts), revision }] : [];
        });
        const ok = await this.#writing(() => this.#store.putTasks(batch));
        if (ok) continue;
        // Not written: tried again with the next progress write, or sooner if something decisive changes.
        for (const id of ids) {
          if (!this.#tracked.has(id)) continue;
          this.#progress.delete(id);
          this.#unwritten.add(id);
        }
        this.#armProgress();
        return;
      }
    } finally {
      this.#taskWrite = undefined;
    }
  }

  async #flushTasks(): Promise<void> {
    await this.#taskWrite;
    if (this.#due.size === 0) return;
    this.#taskWrite = this.#drainTasks();
    await this.#taskWrite;
  }

  async #flushWire(): Promise<void> {
    this.#timers.clearTimeout(this.#wireTimer);
    this.#wireTimer = undefined;
    const batch =
      this.#wire.length > WIRE_LOG_LIMIT ? this.#wire.slice(-WIRE_LOG_LIMIT) : this.#wire;
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
