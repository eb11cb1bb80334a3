/**
 * Stepping through a task's recorded history: the steps, which of them
 * stepping visits, what the client saw at each, and the cursor (live by
 * default). What `HistoryStepper` and the task detail read, whoever
 * recorded the steps: a live task actor (`TaskHistory`) or a replay's
 * recording up to the slider's moment (`src/ui/state/replay-task.svelte.ts`).
 */
import type { MachineGraph } from '../../machines/machine-graph.ts';
import { statusChanges, stepSeen, type StepSeen } from './history-seen.ts';
import {
  listedWindow,
  moveCursor,
  shownPosition,
  shownStep,
  stepBack,
  stepForward,
  type HistoryCursor,
  type HistoryMove,
  type HistoryStep,
} from './task-history.ts';

export class HistoryBrowser {
  /** The graph of the machine that took the steps: what the chart draws. */
  readonly graph: MachineGraph;
  readonly #read: () => readonly HistoryStep[];
  #cursor = $state<HistoryCursor>(null);
  /** When on, the list and stepping visit only the steps where the status seen changed (and the first). */
  statusChangesOnly = $state(false);
  /**
   * What is worked out from the steps, for the array `read` gave last.
   * Plain fields, not `$derived`: `read` gives a new array when a step was
   * recorded (steps are never changed in place) and is itself reactive, so
   * memoising on the array is enough, and a read outside any effect (a
   * test, a script) still sees the newest steps.
   */
  #from: readonly HistoryStep[] | undefined;
  #changes: readonly HistoryStep[] | undefined;
  #seenBy: Map<number, StepSeen> | undefined;

  /** `read` gives every recorded step, oldest first (reactive: read again when it changes). */
  constructor(graph: MachineGraph, read: () => readonly HistoryStep[]) {
    this.graph = graph;
    this.#read = read;
  }

  get #steps(): readonly HistoryStep[] {
    const steps = this.#read();
    if (steps !== this.#from) {
      this.#from = steps;
      this.#changes = undefined;
      this.#seenBy = undefined;
    }
    return steps;
  }

  /** The steps stepping visits: all of them, or only the status changes. */
  get #visited(): readonly HistoryStep[] {
    const steps = this.#steps;
    if (!this.statusChangesOnly) return steps;
    this.#changes ??= statusChanges(steps);
    return this.#changes;
  }

  /** What the client saw at each recorded step, by step index (each read against the step before it). */
  get #seen(): Map<number, StepSeen> {
    const steps = this.#steps;
    this.#seenBy ??= new Map(
      steps.map((step, i) => [step.index, stepSeen(step, steps[i - 1], this.graph)]),
    );
    return this.#seenBy;
  }

  /** The steps stepping visits (only the status changes while `statusChangesOnly` is on). */
  get steps(): readonly HistoryStep[] {
    return this.#visited;
  }

  /** Every recorded step, whatever the filter. */
  get allSteps(): readonly HistoryStep[] {
    return this.#steps;
  }

  /**
   * The step on screen (the charts, the x-ray, "Client is doing"): the
   * newest recorded step while live, listed or not (with status changes
   * only, the client giving up on a `working` is no row, yet it is where
   * the task is now), else the step the cursor is on.
   */
  get shown(): HistoryStep | undefined {
    return this.#cursor === null ? this.#steps.at(-1) : this.selected;
  }

  /**
   * The listed step the cursor is on: while live, the newest listed one
   * (with status changes only, the change the newest step's status dates
   * from). The list marks it and keeps the focus on it.
   */
  get selected(): HistoryStep | undefined {
    return shownStep(this.#visited, this.#cursor);
  }

  /** Whether the step shown is newer than every listed step (live, with status changes only). */
  get shownUnlisted(): boolean {
    const shown = this.shown;
    return shown !== undefined && shown !== this.selected;
  }

  /** 1-based position of the selected step among the listed ones. */
  get position(): number {
    return shownPosition(this.#visited, this.#cursor);
  }

  get live(): boolean {
    return this.#cursor === null;
  }

  /** What the client saw at `step` (a recorded step). */
  seen(step: HistoryStep): StepSeen | undefined {
    return this.#seen.get(step.index);
  }

  /** At most `size` visited steps, oldest first, always holding the shown one. */
  listed(size: number): readonly HistoryStep[] {
    return listedWindow(this.#visited, this.#cursor, size);
  }

  /** A key's move (`HISTORY_KEYS`): older, newer, the oldest step, live. */
  move(move: HistoryMove): void {
    if (move === 'older') this.back();
    else if (move === 'oldest') this.first();
    else this.#cursor = moveCursor(this.#visited, this.#cursor, move);
  }

  /** One step older; from a live step that no row lists, to the newest listed one. */
  back(): void {
    const selected = this.selected;
    this.#cursor =
      this.shownUnlisted && selected ? selected.index : stepBack(this.#visited, this.#cursor);
  }

  forward(): void {
    this.#cursor = stepForward(this.#visited, this.#cursor);
  }

  /** The oldest listed step (live when it is the only step recorded). */
  first(): void {
    const oldest = this.#visited[0];
    this.#cursor = oldest && oldest !== this.#steps.at(-1) ? oldest.index : null;
  }

  /** Whether there is an older step to go to from the one shown. */
  get canGoBack(): boolean {
    return this.position > 1 || this.shownUnlisted;
  }

  /** Shows the step with this `index` (the newest recorded step is live). */
  goTo(index: number): void {
    const newest = this.#steps.at(-1);
    this.#cursor = newest && newest.index === index ? null : index;
  }

  /** Follow the newest step again. */
  followLive(): void {
    this.#cursor = null;
  }
}
