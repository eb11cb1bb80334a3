/**
 * One task at a replay's moment, read as the live page's components read a
 * followed task: the card's lifecycle chart (`TaskLifecycle`), the timeline
 * (`TaskTimeline`) and the task detail (`TaskDetail`, with its
 * `HistoryStepper`). Everything comes from the run's index at that moment,
 * so the history ends at the slider's time and the timeline holds only the
 * messages sent by then.
 */
import type { WireRow } from '../../client/wire-annotation.ts';
import { taskMachine } from '../../machines/task-machine.ts';
import { isTerminal, type TaskStatus } from '../../protocol/task.ts';
import type { RunTaskStep } from '../../record/run-events.ts';
import type { RecordedStep } from '../../replay/replay-events.ts';
import type { RunIndex, TaskAtMoment } from '../../replay/run-index.ts';
import type { StoredTaskReading } from '../../session/server-xray.ts';
import { NO_NEWS, type TaskNewsSnapshot } from '../../session/task-news.ts';
import { graphOf } from '../statechart/graph-cache.ts';
import { HistoryBrowser } from './history-browser.svelte.ts';
import type { HistoryStep } from './task-history.ts';

/** The poll interval a card's note assumes when the recording does not say. */
const UNKNOWN_POLL_INTERVAL_MS = 1000;

/**
 * Where a replay task reads the run: the index, the moment, and the run's
 * clock. Not the slider's time: between two events the moment, and so the
 * task, stays the same while the slider moves on (the views take the time
 * apart, as `now`).
 */
export interface ReplayMoment {
  readonly index: RunIndex;
  /** Events that have happened (the index's moment). */
  readonly n: number;
  /** Epoch ms of the run's first event: a recorded time minus it is a time on the slider. */
  readonly startedAt: number;
}

/** A recorded step as the history view's own (the run file holds it whole). */
export function historyStep(step: RunTaskStep): HistoryStep {
  return {
    index: step.index,
    at: step.at,
    eventType: step.eventType,
    event: step.event,
    value: step.value,
    active: step.active,
    entered: step.entered,
    taken: step.taken,
    internal: step.internal,
    serverStatus: step.serverStatus,
    cancelRequested: step.cancelRequested,
    polls: step.polls,
    pollIntervalMs: step.pollIntervalMs,
    pendingInputs: step.pendingInputs,
    lastError: step.lastError,
    link: step.link,
  };
}

/**
 * Every whole step of `taskId` recorded by moment `n`, oldest first. A step
 * whose index is not above the one before (a hand-edited file) is left out:
 * the history names its steps by index.
 */
export function historyAt(index: RunIndex, taskId: string, n: number): HistoryStep[] {
  const steps: HistoryStep[] = [];
  for (const step of index.stepsOf(taskId, n)) {
    const last = steps.at(-1);
    if (step.recorded && (last === undefined || step.recorded.index > last.index))
      steps.push(historyStep(step.recorded));
  }
  return steps;
}

/** The cancel's acknowledgement and whether a report after it still said running, from the rows shown (T17). */
export function cancelNews(rows: readonly WireRow[], taskId: string): TaskNewsSnapshot {
  let cancelAckedAt: number | undefined;
  let ranOnAfterCancel = false;
  for (const row of rows) {
    if (row.taskId !== taskId || row.direction !== 'in' || row.net?.lost) continue;
    if (row.method === 'tasks/cancel' && row.kind !== 'error') cancelAckedAt ??= row.at;
    else if (cancelAckedAt !== undefined && row.status !== undefined && !isTerminal(row.status))
      ranOnAfterCancel = true;
  }
  return { ...NO_NEWS, cancelAckedAt, ranOnAfterCancel };
}

/**
 * One task at one moment, immutable: what its card, timeline and detail
 * read. Made for the cards drawn (and the detail) only, so what it costs is
 * paid lazily: its rows and its history are worked out on first reading.
 */
export class ReplayTask {
  readonly taskId: string;
  readonly toolName: string | undefined;
  /**
   * The status the client had last heard by this moment, undefined before
   * any (the recording met the task by its x-ray or its first step, the
   * answer naming it still in flight): what the card's badge and its chart
   * both read, so they never tell two stories.
   */
  readonly serverStatus: TaskStatus | undefined;
  readonly stored: StoredTaskReading;
  readonly step: RecordedStep | undefined;
  readonly stepCount: number;
  readonly pollIntervalMs: number;
  readonly done: boolean;
  readonly ttlMs: number | null;
  /** {@link done}: a replay's task is one reading, so what is drawn and what is known agree. */
  get doneAsDrawn(): boolean {
    return this.done;
  }
  /** The machine's state value at this moment (what the detail names on its element). */
  readonly snapshot: { readonly value: unknown };
  readonly #at: ReplayMoment;
  readonly #task: TaskAtMoment;
  #steps: HistoryStep[] | undefined;
  #history: HistoryBrowser | undefined;
  #rows: readonly WireRow[] | undefined;

  constructor(task: TaskAtMoment, at: ReplayMoment) {
    this.#at = at;
    this.#task = task;
    this.taskId = task.taskId;
    this.toolName = task.toolName;
    this.serverStatus = task.clientSaw;
    this.stored = task.stored ?? { kind: 'no-xray', reason: 'server starting' };
    this.step = task.step;
    this.stepCount = task.stepCount;
    this.pollIntervalMs = task.step?.pollIntervalMs ?? UNKNOWN_POLL_INTERVAL_MS;
    // A step whose state value is a plain string is the machine's final state.
    this.done = typeof task.step?.value === 'string';
    this.ttlMs = task.created ? task.created.ttlMs : null;
    this.snapshot = { value: task.step?.value };
  }

  /** Epoch ms of the server's `createdAt`: until a message carried it, the first step's time, else when the recording met the task. */
  get createdAt(): number {
    const { created, metAt } = this.#task;
    return created?.createdAt ?? this.#historySteps[0]?.at ?? this.#at.startedAt + metAt;
  }

  /** The history up to this moment, stepped through like a live task's. */
  get history(): HistoryBrowser {
    const steps = this.#historySteps;
    return (this.#history ??= new HistoryBrowser(graphOf(taskMachine), () => steps));
  }

  /** The wire log's rows about this task at this moment (what its timeline draws). */
  get rows(): readonly WireRow[] {
    return (this.#rows ??= this.#at.index.taskRowsAt(this.taskId, this.#at.n));
  }

  get #historySteps(): HistoryStep[] {
    return (this.#steps ??= historyAt(this.#at.index, this.taskId, this.#at.n));
  }

  /** The x-ray at a past step's time (epoch ms), as the recording had it then. */
  storedAt(at: number): StoredTaskReading | undefined {
    const { index, startedAt } = this.#at;
    return index.storedAt(this.taskId, index.momentAt(at - startedAt));
  }

  /** The cancel's news from the messages shown by this moment. */
  get news(): TaskNewsSnapshot {
    return cancelNews(this.rows, this.taskId);
  }
}
