/**
 * The index that makes "the state at time t" cheap: built once from a run's
 * events (in order), it answers every question about a moment with binary
 * searches and one slice of at most {@link WIRE_ROWS_SHOWN} rows, so moving
 * the slider over 100,000 events never rescans from the first one.
 *
 * A moment is a position `n` in the event list: the state after the first
 * `n` events. Each wire row is annotated once, and each packet update that
 * came later makes a new version of its row, kept with the position it
 * arrived at: the row shown at `n` is its last version before `n`, and
 * unchanged rows keep their object (views cache by row).
 */
import type { WireRow } from '../client/wire-annotation.ts';
import { WireAnnotator, withPacketUpdate } from '../client/wire-annotation.ts';
import { TaskSchema, type TaskStatus } from '../protocol/task.ts';
import type { FaultNotice } from '../session/fault-notices.ts';
import type { StoredTaskReading } from '../session/server-xray.ts';
import type { RecordedStep, ReplayEvent, ReplayEventKind } from './replay-events.ts';

/** Rows a moment shows at most: the live wire log keeps the newest 5000 too. */
export const WIRE_ROWS_SHOWN = 5000;

/** One version of a row, from the event position it took effect at. */
interface RowVersion {
  readonly from: number;
  readonly row: WireRow;
}

/** What the recording says about one task. */
interface TaskTrack {
  readonly taskId: string;
  /** Position of the first event naming it. */
  readonly first: number;
  readonly stepAt: number[];
  readonly steps: RecordedStep[];
  readonly xrayAt: number[];
  readonly xrays: StoredTaskReading[];
  /** Received, delivered messages carrying this task's status (the client saw them). */
  readonly seenAt: number[];
  readonly seen: TaskStatus[];
  toolName: string | undefined;
  /** The task as the client first heard of it (its `createdAt` and `ttlMs`), once a message carried it. */
  created: (TaskAtMoment['created'] & { readonly from: number }) | undefined;
}

/** One task at a moment: what the client had seen, the x-ray, the step its machine was at. */
export interface TaskAtMoment {
  readonly taskId: string;
  readonly toolName: string | undefined;
  /** The status the client last saw (its last report), undefined before the first one. */
  readonly clientSaw: TaskStatus | undefined;
  /** The server store's status at that moment, where the run has an x-ray. */
  readonly stored: StoredTaskReading | undefined;
  /** The machine's last recorded step, and how many steps came so far. */
  readonly step: RecordedStep | undefined;
  readonly stepCount: number;
  /** Epoch ms of the server's `createdAt` and the task's `ttlMs`, once the client had heard them by then. */
  readonly created: { readonly createdAt: number; readonly ttlMs: number | null } | undefined;
  /** When the recording first named the task (ms since the run began). */
  readonly metAt: number;
}

/** The largest i with sorted[i] < value, plus one: how many entries are below `value`. */
export function countBelow(sorted: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** How many entries are at most `value`. */
function countAtMost(sorted: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** `createdAt` (epoch ms) and `ttlMs` of the task a received message's result carries, if it carries one. */
function createdOf(message: unknown, position: number): TaskTrack['created'] {
  const result =
    typeof message === 'object' && message !== null ? Reflect.get(message, 'result') : undefined;
  const task = TaskSchema.safeParse(result);
  if (!task.success) return undefined;
  return { createdAt: Date.parse(task.data.createdAt), ttlMs: task.data.ttlMs, from: position };
}

export class RunIndex {
  readonly events: readonly ReplayEvent[];
  /** Time of the last event (ms since the run began). */
  readonly duration: number;
  readonly #times: Float64Array;
  /** Positions of the events of each kind, ascending. */
  readonly #byKind = new Map<ReplayEventKind, number[]>();
  readonly #rowAt: number[] = [];
  readonly #rows: RowVersion[][] = [];
  readonly #clearAt: number[] = [];
  readonly #faultAt: number[] = [];
  readonly #faults: FaultNotice[] = [];
  /** Every task met, in the order met (its `first` ascending). */
  readonly #tasks = new Map<string, TaskTrack>();
  readonly #taskOrder: string[] = [];
  readonly #firstAt: number[] = [];
  /** For each taskId, the rows naming it (indexes into `#rows`, ascending). */
  readonly #rowsOfTask = new Map<string, number[]>();

  readonly #annotator = new WireAnnotator();
  /** Row index of each sent message still waiting for news, by packet. */
  readonly #byPacket = new Map<number, number>();

  /** `events` must be ordered by `at` (a run file's are); nothing is indexed yet (see `of`, `build`). */
  private constructor(events: readonly ReplayEvent[]) {
    this.events = events;
    this.#times = Float64Array.from(events, (event) => event.at);
    this.duration = events.length === 0 ? 0 : events[events.length - 1]!.at;
  }

  /** The index of `events`, built at once (`events.length` work, done once). */
  static of(events: readonly ReplayEvent[]): RunIndex {
    const index = new RunIndex(events);
    index.#ingest(0, events.length);
    return index;
  }

  /**
   * The same, built `chunk` events at a time, awaiting `pause()` between
   * chunks (the page yields to its event loop and shows `onProgress`), so a
   * run of 100,000 messages never holds the main thread for long. With a
   * `budget`, chunks run on until `budget.ms` have passed since the last
   * pause: short tasks on a slow or loaded machine, few pauses on a fast one.
   */
  static async build(
    events: readonly ReplayEvent[],
    options: {
      chunk: number;
      pause: () => Promise<void>;
      onProgress?: (done: number) => void;
      budget?: { ms: number; now: () => number };
    },
  ): Promise<RunIndex> {
    const index = new RunIndex(events);
    const { budget } = options;
    let since = budget?.now() ?? 0;
    for (let from = 0; from < events.length; from += options.chunk) {
      const to = Math.min(events.length, from + options.chunk);
      index.#ingest(from, to);
      if (budget && to < events.length && budget.now() - since < budget.ms) continue;
      options.onProgress?.(to / events.length);
      await options.pause();
      since = budget?.now() ?? 0;
    }
    return index;
  }

  #ingest(from: number, to: number): void {
    for (let position = from; position < to; position++)
      this.#add(this.events[position]!, position);
  }

  #add(event: ReplayEvent, position: number): void {
    let positions = this.#byKind.get(event.kind);
    if (!positions) this.#byKind.set(event.kind, (positions = []));
    positions.push(position);
    switch (event.kind) {
      case 'wire': {
        const row = this.#annotator.annotate(event.entry);
        if (row.net && row.direction === 'out')
          this.#byPacket.set(row.net.packet, this.#rows.length);
        if (row.taskId !== undefined) {
          let rows = this.#rowsOfTask.get(row.taskId);
          if (!rows) this.#rowsOfTask.set(row.taskId, (rows = []));
          rows.push(this.#rows.length);
        }
        this.#rowAt.push(position);
        this.#rows.push([{ from: position, row }]);
        if (row.taskId !== undefined && row.status !== undefined) {
          const track = this.#track(row.taskId, position);
          if (row.direction === 'in' && !row.net?.lost) {
            track.seenAt.push(position);
            track.seen.push(row.status);
            track.created ??= createdOf(row.message, position);
          }
        }
        break;
      }
      case 'packet': {
        const index = this.#byPacket.get(event.update.packet);
        const versions = index === undefined ? undefined : this.#rows[index];
        if (!versions) break;
        const row = withPacketUpdate(versions[versions.length - 1]!.row, event.update);
        versions.push({ from: position, row });
        if (event.update.deliveredAt !== undefined || event.update.lost) {
          this.#byPacket.delete(event.update.packet);
        }
        break;
      }
      case 'fault':
        this.#faultAt.push(position);
        this.#faults.push(event.notice);
        break;
      case 'wire-cleared':
        this.#clearAt.push(position);
        break;
      case 'task-step': {
        const track = this.#track(event.step.taskId, position);
        track.stepAt.push(position);
        track.steps.push(event.step);
        track.toolName ??= event.step.toolName;
        break;
      }
      case 'task':
        this.#track(event.taskId, position).toolName ??= event.toolName;
        break;
      case 'xray': {
        const track = this.#track(event.taskId, position);
        track.xrayAt.push(position);
        track.xrays.push(event.reading);
        break;
      }
      case 'other':
        break;
    }
  }

  /** The moment at time `t`: every event at or before it has happened. */
  momentAt(t: number): number {
    return countAtMost(this.#times, t);
  }

  /** When the event at `position` happened. */
  timeOf(position: number): number {
    return this.#times[position] ?? this.duration;
  }

  /** Position of the first event of one of `kinds` at or after `from`, if any. */
  nextOf(kinds: readonly ReplayEventKind[], from: number): number | undefined {
    let best: number | undefined;
    for (const kind of kinds) {
      const positions = this.#byKind.get(kind) ?? [];
      const found = positions[countBelow(positions, from)];
      if (found !== undefined && (best === undefined || found < best)) best = found;
    }
    return best;
  }

  /** Position of the last event of one of `kinds` before `before`, if any. */
  previousOf(kinds: readonly ReplayEventKind[], before: number): number | undefined {
    let best: number | undefined;
    for (const kind of kinds) {
      const positions = this.#byKind.get(kind) ?? [];
      const found = positions[countBelow(positions, before) - 1];
      if (found !== undefined && (best === undefined || found > best)) best = found;
    }
    return best;
  }

  /** How many events of `kind` happened before moment `n`. */
  countOf(kind: ReplayEventKind, n: number): number {
    return countBelow(this.#byKind.get(kind) ?? [], n);
  }

  /** The rows the wire log shows at moment `n` (indexes into `#rows`, `start` to before `end`): since the last clear, the newest {@link WIRE_ROWS_SHOWN}. */
  #shownAt(n: number): { start: number; end: number } {
    const end = countBelow(this.#rowAt, n);
    const lastClear = this.#clearAt[countBelow(this.#clearAt, n) - 1];
    const sinceClear = lastClear === undefined ? 0 : countBelow(this.#rowAt, lastClear);
    return { start: Math.max(sinceClear, end - WIRE_ROWS_SHOWN), end };
  }

  /** Row `index` as it was at moment `n`: its last version from before `n`. */
  #rowAtMoment(index: number, n: number): WireRow {
    const versions = this.#rows[index]!;
    let version = versions.length - 1;
    while (version > 0 && versions[version]!.from >= n) version--;
    return versions[version]!.row;
  }

  /** The wire log at moment `n`: rows since the last clear, the newest {@link WIRE_ROWS_SHOWN}, each as it was then. */
  wireAt(n: number): readonly WireRow[] {
    const { start, end } = this.#shownAt(n);
    const rows: WireRow[] = [];
    for (let index = start; index < end; index++) rows.push(this.#rowAtMoment(index, n));
    return rows;
  }

  /**
   * The rows of the wire log at moment `n` that name `taskId`, each as it
   * was then: `wireAt(n)` filtered by taskId, found by binary search in the
   * task's own rows (a card's timeline costs its task's rows, not the log's).
   */
  taskRowsAt(taskId: string, n: number): readonly WireRow[] {
    const own = this.#rowsOfTask.get(taskId);
    if (!own) return [];
    const { start, end } = this.#shownAt(n);
    const rows: WireRow[] = [];
    for (let i = countBelow(own, start); i < own.length && own[i]! < end; i++)
      rows.push(this.#rowAtMoment(own[i]!, n));
    return rows;
  }

  /** The fault notices shown at moment `n` (since the last clear of the wire log). */
  faultsAt(n: number): readonly FaultNotice[] {
    const end = countBelow(this.#faultAt, n);
    const lastClear = this.#clearAt[countBelow(this.#clearAt, n) - 1];
    const start = lastClear === undefined ? 0 : countBelow(this.#faultAt, lastClear);
    return this.#faults.slice(start, end);
  }

  /** Every task the recording met, in the order it met them (the first `tasksMetBy(n)` had been met by moment `n`). */
  get taskIds(): readonly string[] {
    return this.#taskOrder;
  }

  /** How many tasks the recording had met by moment `n`. */
  tasksMetBy(n: number): number {
    return countBelow(this.#firstAt, n);
  }

  /** One task at moment `n` (binary searches in its own track), undefined before the recording met it. */
  taskAt(taskId: string, n: number): TaskAtMoment | undefined {
    const track = this.#tasks.get(taskId);
    if (!track || track.first >= n) return undefined;
    const steps = countBelow(track.stepAt, n);
    const step = track.steps[steps - 1];
    const seen = track.seen[countBelow(track.seenAt, n) - 1];
    return {
      taskId: track.taskId,
      toolName: track.toolName,
      clientSaw: step?.serverStatus ?? seen,
      stored: track.xrays[countBelow(track.xrayAt, n) - 1],
      step,
      stepCount: steps,
      created: track.created && track.created.from < n ? track.created : undefined,
      metAt: this.timeOf(track.first),
    };
  }

  /** Every task the recording had met by moment `n`, newest first (as the page lists them). */
  tasksAt(n: number): readonly TaskAtMoment[] {
    const ids = this.taskIds.slice(0, this.tasksMetBy(n)).reverse();
    return ids.map((taskId) => this.taskAt(taskId, n)!);
  }

  /** Every recorded step of one task up to moment `n`, oldest first. */
  stepsOf(taskId: string, n: number): readonly RecordedStep[] {
    const track = this.#tasks.get(taskId);
    return track ? track.steps.slice(0, countBelow(track.stepAt, n)) : [];
  }

  /** The x-ray of one task's stored status at moment `n`, where the run has one. */
  storedAt(taskId: string, n: number): StoredTaskReading | undefined {
    const track = this.#tasks.get(taskId);
    return track?.xrays[countBelow(track.xrayAt, n) - 1];
  }

  #track(taskId: string, position: number): TaskTrack {
    let track = this.#tasks.get(taskId);
    if (!track) {
      track = {
        taskId,
        first: position,
        stepAt: [],
        steps: [],
        xrayAt: [],
        xrays: [],
        seenAt: [],
        seen: [],
        toolName: undefined,
        created: undefined,
      };
      this.#tasks.set(taskId, track);
      this.#taskOrder.push(taskId);
      this.#firstAt.push(position);
    }
    return track;
  }
}
