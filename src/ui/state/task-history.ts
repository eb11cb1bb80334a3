/**
 * A task actor's recorded history, one step per event it processed: the
 * event, the transitions it took (as ids of the machine graph's edges), the
 * state value after it and the facts the page shows beside the chart.
 * Recorded with XState's inspection API, so each step names the event that
 * really caused it, eventless (`always`) transitions included.
 *
 * Plain TypeScript (no runes), tested in Node; `task-history.svelte.ts`
 * makes it reactive. The cursor functions below step through it.
 *
 * Every followed task is recorded from the moment it is followed, a step
 * per poll and more, with a thousand tasks thousands of steps a second:
 * recording copies nothing, and the history is copied out only when read.
 */
import type { AnyTransitionDefinition, InspectionEvent, StateValue } from 'xstate';
import type { TaskActor } from '../../client/task-follower.ts';
import { actorNow } from './actor-clock.ts';
import {
  activeLeafIds,
  eventLabel,
  transitionKey,
  type MachineGraph,
} from '../../machines/machine-graph.ts';
import { pollIntervalMs } from '../../machines/task-machine.ts';
import type { TaskStatus } from '../../protocol/task.ts';
import { graphOf } from '../statechart/graph-cache.ts';
import { HISTORY_LIMIT, HistoryBudget, pageHistoryBudget } from './history-budget.ts';

/** What the page shows beside the chart at one step. */
export interface StepFacts {
  serverStatus: TaskStatus;
  cancelRequested: boolean;
  polls: number;
  pollIntervalMs: number;
  pendingInputs: number;
  lastError: string | undefined;
  /** While the client's link is down: why, and its reconnect attempts (C8). */
  link: { reason: string; attempt: number } | undefined;
}

export interface HistoryStep extends StepFacts {
  /** 0 for the start, +1 per step; stays put when old steps are dropped. */
  index: number;
  at: number;
  /** The raw event type (`poll.answered`, `xstate.after.pollInterval.task.active.lifecycle.waiting`). */
  eventType: string;
  /** The event as a learner reads it (`poll.answered`). */
  event: string;
  value: StateValue;
  /**
   * Deepest active states: one per parallel region, or the final state. This
   * array and `entered` are shared by every step with the same value and
   * frozen (steps never change), so recording a poll's step copies nothing.
   */
  active: string[];
  /** Leaves active now that were not before this step. */
  entered: string[];
  /** Edge ids of the graph taken by this step, in order (an `always` may follow the event's own). */
  taken: string[];
  /** Targetless transitions taken (handled without a state change). */
  internal: string[];
}

type TaskSnapshot = ReturnType<TaskActor['getSnapshot']>;

function lastErrorOf({ lastError: error }: TaskSnapshot['context']): string | undefined {
  return error ? `${error.code !== undefined ? `${error.code} ` : ''}${error.message}` : undefined;
}

/**
 * Derived facts of a step that depend only on the machine graph and the
 * state value (or the transition): the same few values come back on every
 * poll, so each is worked out once per graph and shared, frozen, from then on
 * (steps are never changed). A poll alternates between two values, so a
 * recorder first compares with the values it met last, which costs no key.
 */
const leavesByGraph = new WeakMap<MachineGraph, Map<string, string[]>>();
const enteredBetween = new WeakMap<string[], WeakMap<string[], string[]>>();
const keyOfTransition = new WeakMap<AnyTransitionDefinition, string>();
/** Shared arrays are frozen: typed as the steps' (the run file's) arrays, but changed by nobody. */
const frozen = (ids: string[]): string[] => Object.freeze(ids) as string[];
const NONE = frozen([]);

function leavesOf(graph: MachineGraph, value: StateValue): string[] {
  let known = leavesByGraph.get(graph);
  if (!known) leavesByGraph.set(graph, (known = new Map()));
  const key = typeof value === 'string' ? value : JSON.stringify(value);
  let leaves = known.get(key);
  if (!leaves) known.set(key, (leaves = frozen(activeLeafIds(graph, value))));
  return leaves;
}

/** The leaves in `active` not in `before`; both are shared arrays from {@link leavesOf}. */
function enteredOf(before: string[], active: string[]): string[] {
  if (before === active) return NONE;
  let known = enteredBetween.get(before);
  if (!known) enteredBetween.set(before, (known = new WeakMap()));
  let entered = known.get(active);
  if (!entered) known.set(active, (entered = frozen(active.filter((id) => !before.includes(id)))));
  return entered;
}

function sameValue(a: StateValue, b: StateValue): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  for (const key in a) if (!(key in b) || !sameValue(a[key]!, b[key]!)) return false;
  for (const key in b) if (!(key in a)) return false;
  return true;
}

function keyOf(transition: AnyTransitionDefinition): string {
  let key = keyOfTransition.get(transition);
  if (key === undefined) keyOfTransition.set(transition, (key = transitionKey(transition)));
  return key;
}

/**
 * Records one actor's steps as they happen, keeping the newest `keep`: a
 * number, or a share of a {@link HistoryBudget} (the page's: `historyOf`).
 * Append-only: a step, once recorded, is never changed, and recording one
 * copies nothing; {@link steps} copies the kept ones out when read after a
 * change, so a history nobody looks at costs one step object per event.
 * {@link onStep} tells listeners of each new step.
 */
export class HistoryRecorder {
  readonly graph: MachineGraph;
  readonly #keep: number | HistoryBudget;
  readonly #leaveBudget: () => void;
  /**
   * Oldest first; may hold a quarter more than the limit (at least 8 more),
   * trimmed back to it then: a trim copies the limit's pointers once per
   * quarter of it recorded, and the steps held stay near what is kept.
   */
  #all: HistoryStep[] = [];
  /** What {@link steps} gave last; dropped when a step is recorded. */
  #read: readonly HistoryStep[] | undefined;
  readonly #listeners = new Set<(step: HistoryStep) => void>();
  #pending: AnyTransitionDefinition[] = [];
  /** The values met last, with their leaves: a poll goes back and forth between two. */
  #recent: { value: StateValue; active: string[] }[] = [];
  #next = 0;
  readonly #unsubscribe: () => void;
  readonly #now: () => number;

  constructor(actor: TaskActor, graph: MachineGraph, keep: number | HistoryBudget = HISTORY_LIMIT) {
    this.graph = graph;
    this.#keep = typeof keep === 'number' ? Math.max(1, Math.floor(keep)) : keep;
    this.#leaveBudget = typeof keep === 'number' ? () => undefined : keep.join(this);
    this.#now = actorNow(actor);
    const observe = (event: InspectionEvent): void => {
      // Invoked promise actors share the system; only the task actor's own steps count.
      if (event.actorRef !== actor) return;
      if (event.type === '@xstate.microstep') this.#pending.push(...event._transitions);
      else if (event.type === '@xstate.snapshot')
        this.#record(event.event.type, event.snapshot as TaskSnapshot);
    };
    const subscription = actor.system.inspect(observe);
    this.#unsubscribe = () => subscription.unsubscribe();
    // The actor's state now (after xstate.init if it has started) is the first step.
    this.#record('xstate.init', actor.getSnapshot());
  }

  /** How many steps are kept now (a budget's share changes as tasks come and go). */
  get limit(): number {
    return typeof this.#keep === 'number' ? this.#keep : this.#keep.share;
  }

  /** The kept steps, oldest first: the same array until the next step is recorded. */
  get steps(): readonly HistoryStep[] {
    this.#read ??= this.#all.slice(-this.limit);
    return this.#read;
  }

  /** The newest step. */
  get latest(): HistoryStep | undefined {
    return this.#all.at(-1);
  }

  /** Calls `listener` with each step recorded from now on; returns the unsubscribe. */
  onStep(listener: (step: HistoryStep) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  stop(): void {
    this.#unsubscribe();
    this.#leaveBudget();
  }

  #record(eventType: string, snapshot: TaskSnapshot): void {
    const transitions = this.#pending;
    this.#pending = [];
    const isStart = eventType === 'xstate.init';
    if (isStart && this.#all.length > 0) return;
    // An event that matched no transition changed nothing worth a step.
    if (!isStart && transitions.length === 0) return;
    const active = this.#leaves(snapshot.value);
    const taken: string[] = [];
    const internal: string[] = [];
    for (const t of transitions) ((t.target ?? []).length > 0 ? taken : internal).push(keyOf(t));
    const { context } = snapshot;
    const step: HistoryStep = {
      index: this.#next++,
      at: this.#now(),
      eventType,
      event: eventLabel(this.graph, eventType),
      value: snapshot.value,
      active,
      entered: enteredOf(this.#all.at(-1)?.active ?? NONE, active),
      taken: taken.length > 0 ? taken : NONE,
      internal: internal.length > 0 ? internal : NONE,
      // The facts beside the chart, written in place (no object spread): this runs per step.
      serverStatus: context.task.status,
      cancelRequested: context.cancelRequested,
      polls: context.polls,
      pollIntervalMs: pollIntervalMs(context),
      pendingInputs: Object.keys(context.pendingInputs).length,
      lastError: lastErrorOf(context),
      link: context.link
        ? { reason: context.link.reason, attempt: context.link.attempt }
        : undefined,
    };
    this.#all.push(step);
    const limit = this.limit;
    if (this.#all.length >= limit + Math.max(8, Math.ceil(limit / 4)))
      this.#all = this.#all.slice(-limit);
    this.#read = undefined;
    if (this.#listeners.size > 0) for (const listener of [...this.#listeners]) listener(step);
  }

  #leaves(value: StateValue): string[] {
    const recent = this.#recent.find((met) => sameValue(met.value, value));
    if (recent) return recent.active;
    const active = leavesOf(this.graph, value);
    this.#recent = [{ value, active }, ...this.#recent.slice(0, 1)];
    return active;
  }
}

/**
 * One recorder per task actor, started on first use, shared by everything
 * that reads its steps (the history view, the run recorder): each step is
 * worked out once, however many read it.
 */
const recorders = new WeakMap<TaskActor, HistoryRecorder>();

/** The recorder of `actor`'s steps (kept: a share of the page's budget), started now if nothing asked before. */
export function historyOf(actor: TaskActor): HistoryRecorder {
  let recorder = recorders.get(actor);
  if (!recorder)
    recorders.set(
      actor,
      (recorder = new HistoryRecorder(actor, graphOf(actor.logic), pageHistoryBudget)),
    );
  return recorder;
}

/*
 * The cursor: `null` follows the newest step (live); a number is a step's
 * `index`, kept when older steps are dropped (then it clamps to the oldest).
 */

export type HistoryCursor = number | null;

/** The step the chart shows. */
export function shownStep(
  steps: readonly HistoryStep[],
  cursor: HistoryCursor,
): HistoryStep | undefined {
  if (steps.length === 0) return undefined;
  if (cursor === null) return steps[steps.length - 1];
  // A cursor on a step not in `steps` (dropped, or filtered out) shows the nearest older one.
  return steps.findLast((s) => s.index <= cursor) ?? steps[0];
}

/** Position of the shown step, 1-based, for "step 3 of 40". */
export function shownPosition(steps: readonly HistoryStep[], cursor: HistoryCursor): number {
  const step = shownStep(steps, cursor);
  return step ? steps.indexOf(step) + 1 : 0;
}

/** One step older; stops at the oldest. */
export function stepBack(steps: readonly HistoryStep[], cursor: HistoryCursor): HistoryCursor {
  const position = shownPosition(steps, cursor);
  if (position === 0) return null;
  return steps[Math.max(0, position - 2)]!.index;
}

/** One step newer; the newest step is live again. */
export function stepForward(steps: readonly HistoryStep[], cursor: HistoryCursor): HistoryCursor {
  const position = shownPosition(steps, cursor);
  if (cursor === null || position >= steps.length - 1) return null;
  return steps[position]!.index;
}

/** What a key does to the cursor: the list runs newest first, so Up and Right step newer. */
export type HistoryMove = 'older' | 'newer' | 'oldest' | 'live';

/**
 * The stepper's keys: Left and Down step older, Right and Up newer, Home to
 * the oldest step, End back to live. The list shows the newest step on top,
 * so Up and Down move the selection the way the keys point.
 */
export const HISTORY_KEYS: Readonly<Record<string, HistoryMove>> = {
  ArrowLeft: 'older',
  ArrowDown: 'older',
  ArrowRight: 'newer',
  ArrowUp: 'newer',
  Home: 'oldest',
  End: 'live',
};

/** The cursor after `move`. */
export function moveCursor(
  steps: readonly HistoryStep[],
  cursor: HistoryCursor,
  move: HistoryMove,
): HistoryCursor {
  switch (move) {
    case 'older':
      return stepBack(steps, cursor);
    case 'newer':
      return stepForward(steps, cursor);
    case 'oldest':
      return firstStep(steps);
    case 'live':
      return null;
  }
}

/**
 * The steps the list shows (at most `size`, oldest first): the newest ones
 * while live, else a window holding the shown step, so the step selected is
 * always one the list can focus.
 */
export function listedWindow(
  steps: readonly HistoryStep[],
  cursor: HistoryCursor,
  size: number,
): readonly HistoryStep[] {
  if (steps.length <= size) return steps;
  const at = Math.max(0, shownPosition(steps, cursor) - 1);
  const start = Math.min(Math.max(0, at - Math.floor(size / 2)), steps.length - size);
  return steps.slice(start, start + size);
}

export function firstStep(steps: readonly HistoryStep[]): HistoryCursor {
  return steps.length > 1 ? steps[0]!.index : null;
}
