/**
 * One followed task as the UI reads it: the task actor's latest snapshot,
 * split into what the SERVER said (`serverStatus`, from the last report)
 * and what the CLIENT is doing (`activity`, the machine's region states).
 * They differ on purpose: a cancel the client requested can still end
 * `completed` (T17).
 *
 * The snapshot is read through @xstate/svelte's `useSelector` (as a store,
 * turned into a reactive value by `fromStore`): the actor is subscribed to
 * only while something on screen reads it, and nothing is copied by hand.
 * What is drawn changes at most once per animation frame (`perFrame`): card
 * state must be read through this class, never from the actor directly.
 * Facts the machine's context holds as they are are read from `context`;
 * the getters here derive something.
 */
import { useSelector } from '@xstate/svelte';
import { createSubscriber } from 'svelte/reactivity';
import { fromStore } from 'svelte/store';
import type { SnapshotFrom } from 'xstate';
import type { TaskActor } from '../../client/task-follower.ts';
import { actorNow } from './actor-clock.ts';
import { cardStatus, type CardStatus } from './card-status.ts';
import {
  createdAtMs,
  pollIntervalMs,
  ttlMs,
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
import type { PageSession } from '../../session/page-session.ts';
import type { StoredTaskReading } from '../../session/server-xray.ts';
import { oncePerFrame, perFrame } from './per-frame.ts';
import type { TaskNews, TaskNewsSnapshot } from '../../session/task-news.ts';
import { TaskHistory } from './task-history.svelte.ts';
import type { XrayHistory } from './xray-history.ts';

type TaskSnapshot = SnapshotFrom<typeof taskMachine>;

/** The machine's parallel regions while the task is active, or its final state. */
export type TaskActivity =
  | { done: false; lifecycle: string; input: string; cancel: string; link: string }
  | { done: true; final: string };

/** The two facts read over every task, not only drawn ones. */
interface TaskFlags {
  done: boolean;
  asksForInput: boolean;
}

function flagsOf(snapshot: TaskSnapshot): TaskFlags {
  const done = snapshot.status !== 'active';
  // Some key waits for an answer, and only while following (see `pendingInputs`).
  const asksForInput = !done && Object.keys(snapshot.context.pendingInputs).length > 0;
  return { done, asksForInput };
}

const sameFlags = (a: TaskFlags, b: TaskFlags) =>
  a.done === b.done && a.asksForInput === b.asksForInput;

export class FollowedTask {
  readonly taskId: string;
  readonly toolName: string;
  /**
   * When this page began following the task, on the actor's clock (world
   * time on the page). A scenario run counts the tasks followed since it
   * started by this, not by the server's `createdAt`: that is another
   * machine's clock (the worker's, a remote server's), and comparing times
   * from two clocks is the mistake the run must not make.
   */
  readonly followedAt: number;
  readonly #actor: TaskActor;
  readonly #snapshot: { readonly current: TaskSnapshot };
  /**
   * What lists read over every task (the card window, "Clear finished"),
   * selected apart from the snapshot: it changes only when a flag flips, so
   * a task whose card is not drawn costs no update per poll.
   */
  readonly #flags: { readonly current: TaskFlags };
  /** Every step the actor took, for the statechart's history stepping. */
  readonly history: TaskHistory;
  readonly #news: TaskNews;
  readonly #watchNews: () => void;
  readonly #xray: Pick<PageSession, 'xray' | 'on'>;
  readonly #watchXray: () => void;

  readonly #xrayHistory: XrayHistory | undefined;

  /**
   * `session`: the page's session, for what it heard about the task (`news`)
   * and the x-ray; `xrayHistory`, when given, records the x-ray over time
   * (tracked from before the first history step, so that step's reading is known).
   */
  constructor(
    actor: TaskActor,
    session: Pick<PageSession, 'xray' | 'on' | 'news'>,
    xrayHistory?: XrayHistory,
  ) {
    this.#actor = actor;
    this.followedAt = actorNow(actor)();
    this.#xrayHistory = xrayHistory;
    xrayHistory?.track(actor.getSnapshot().context.taskId);
    // One update per animation frame, not per snapshot (see per-frame.ts).
    this.#snapshot = fromStore(perFrame(useSelector(actor, (snapshot) => snapshot)));
    this.#flags = fromStore(useSelector(actor, flagsOf, sameFlags));
    this.history = new TaskHistory(actor);
    const { context } = actor.getSnapshot();
    this.taskId = context.taskId;
    this.toolName = context.toolName;
    this.#news = session.news;
    // What the page heard changes with every message about the task: redrawn once a frame.
    this.#watchNews = createSubscriber((update) => {
      const redraw = oncePerFrame(update);
      const stop = session.news.onChange(this.taskId, redraw.request);
      return () => {
        stop();
        redraw.cancel();
      };
    });
    this.#xray = session;
    // Re-read only when this task's reading (or every task's) changed.
    this.#watchXray = createSubscriber((update) =>
      session.on('xray', ({ taskId }) => {
        if (taskId === undefined || taskId === this.taskId) update();
      }),
    );
  }

  /**
   * The x-ray: what the server's store holds for this task now, told beside
   * the MCP wire. The client itself knows only {@link serverStatus}, from its
   * last tasks/get reply or notification.
   */
  get stored(): StoredTaskReading {
    this.#watchXray();
    return this.#xray.xray.reading(this.taskId);
  }

  /**
   * The x-ray at a past moment (`at`, epoch ms, a history step's time): what
   * the store held then, or `undefined` when the page does not know.
   */
  storedAt(at: number): StoredTaskReading | undefined {
    return this.#xrayHistory?.readingAt(this.taskId, at);
  }

  /** What the page last heard about the task, when, the faults that hit it, and why it is gone. */
  get news(): TaskNewsSnapshot {
    this.#watchNews();
    return this.#news.of(this.taskId);
  }

  /** The actor's latest snapshot (its `value` is what the statechart is checked against). */
  get snapshot(): TaskSnapshot {
    return this.#snapshot.current;
  }

  /** The machine's context: polls, link trouble, outcome, cancel intent, answered keys, last error, the last report. */
  get context(): TaskSnapshot['context'] {
    return this.#snapshot.current.context;
  }

  /** The status the client last saw: its last tasks/get reply or notification (T6); only the server changes it. */
  get serverStatus(): TaskStatus {
    return this.context.task.status;
  }

  get activity(): TaskActivity {
    const value = this.snapshot.value;
    if (typeof value === 'string') return { done: true, final: value };
    return { done: false, ...value.active };
  }

  /**
   * The card's status badge, from one snapshot: the status, whether the actor stopped and its
   * outcome as drawn in the same frame. {@link done} flips as soon as the actor stops, a frame
   * ahead of the per-frame snapshot, so a badge mixing the two said "last heard: working" for a
   * frame each time a task completed.
   */
  get badge(): CardStatus {
    const { context } = this.snapshot;
    return cardStatus(context.task.status, this.doneAsDrawn, context.outcome);
  }

  /**
   * {@link done} as the per-frame snapshot has it: what a card shows beside the snapshot's status
   * and context ("last heard", the chart's legend) reads this, so the two never disagree for a frame.
   */
  get doneAsDrawn(): boolean {
    return this.snapshot.status !== 'active';
  }

  /** The actor has stopped: an outcome was reached or the user forgot the task. */
  get done(): boolean {
    return this.#flags.current.done;
  }

  /** Some input request waits for this user (see {@link pendingInputs}). */
  get asksForInput(): boolean {
    return this.#flags.current.asksForInput;
  }

  /** The client's conclusion once done, as its machine's chart names it ("gave up: TTL passed"), never a status. */
  get finalLabel(): string | undefined {
    const value = this.snapshot.value;
    if (typeof value !== 'string') return undefined;
    const { graph } = this.history;
    return graph.nodes.find((n) => n.id === `${graph.rootId}.${value}`)?.label ?? value;
  }

  get forgotten(): boolean {
    return this.snapshot.value === 'forgotten';
  }

  get pollIntervalMs(): number {
    return pollIntervalMs(this.context);
  }

  get ttlMs(): number | null {
    return ttlMs(this.context);
  }

  /** Epoch ms of the server's `createdAt`. */
  get createdAt(): number {
    return createdAtMs(this.context);
  }

  /**
   * Input requests waiting for this user, each key once however often polls
   * repeat it (T14). None once following ended: nobody would send the answer.
   */
  get pendingInputs(): [string, InputRequest][] {
    if (this.done) return [];
    return Object.entries(this.context.pendingInputs);
  }

  /** The server's report on its durable job: last checkpoint, and take-overs by a fresh worker. */
  get jobProgress(): JobProgress | undefined {
    return jobProgressOf(this.context.task);
  }

  /** The tool's result, once `completed` (T10, T11). */
  get result(): CallToolResult | undefined {
    // A CreateTaskResult is a DetailedTask without the optional fields (T7, T10).
    const task: DetailedTask = this.context.task;
    return task.result;
  }

  /** The JSON-RPC error of a `failed` task (T10). */
  get error(): RpcError | undefined {
    const task: DetailedTask = this.context.task;
    return task.error;
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
