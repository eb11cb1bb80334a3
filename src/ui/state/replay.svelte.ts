/**
 * An open replay as Svelte shows it: a thin adapter over its `ReplayPlayer`
 * (the cursor, play state, speed) and `RunIndex` (what the views show at the
 * cursor's moment). Reads are made reactive with `createSubscriber` on the
 * player's changes; nothing is mirrored. The wire log and the sequence view
 * read `wire` (a `WireView`), the task list `tasks`, the same components as
 * the live page.
 */
import { createSubscriber } from 'svelte/reactivity';
import { searchText, type WireRow } from '../../client/wire-annotation.ts';
import { FrameStagger } from '../../replay/frame-stagger.ts';
import { ReplayPlayer, type StepTarget, type Ticker } from '../../replay/replay-player.ts';
import type { RunIndex } from '../../replay/run-index.ts';
import type { FaultNotice } from '../../session/fault-notices.ts';
import type { WireView } from './wire-view.ts';
import type { RunScenario } from '../../record/run-file.ts';
import { ReplayListedTask } from './replay-listed-task.svelte.ts';
import { ReplayTask, type ReplayMoment } from './replay-task.svelte.ts';

export { ReplayListedTask, ReplayTask };

/** Where the run came from and when it was recorded, for the banner. */
export interface ReplayOrigin {
  /** The file's name, or the address it was fetched from. */
  readonly name: string;
  /** ISO time of the run's first event. */
  readonly recordedAt: string;
  /** The app version that recorded it. */
  readonly appVersion: string;
  /** The scenario it was recorded from, when it was recorded while one was open. */
  readonly scenario?: RunScenario | undefined;
}

/** The replay's wire log at the slider's moment; the filter is the replay's own. */
class ReplayWire implements WireView {
  readonly #replay: Replay;
  #filter = $state('');

  constructor(replay: Replay) {
    this.#replay = replay;
  }

  get rows(): readonly WireRow[] {
    return this.#replay.rows;
  }

  get visible(): readonly WireRow[] {
    const words = this.#filter.toLowerCase().split(/\s+/).filter(Boolean);
    const rows = this.rows;
    if (words.length === 0) return rows;
    return rows.filter((row) => words.every((word) => searchText(row).includes(word)));
  }

  get faults(): readonly FaultNotice[] {
    return this.#replay.faults;
  }

  get filter(): string {
    return this.#filter;
  }

  set filter(value: string) {
    this.#filter = value;
  }
}

export class Replay {
  readonly origin: ReplayOrigin;
  readonly player: ReplayPlayer;
  readonly index: RunIndex;
  readonly wire: WireView;
  /** The cards' redraws after a seek, spread over the coming frames (one card's timeline is tens of ms). */
  readonly stagger: FrameStagger;
  readonly #watch: () => void;
  /** Derived once per moment, so each view reading them shares one slice. */
  readonly #moment = $derived.by(() => {
    this.#watch();
    return this.player.moment;
  });
  // Lazy (`.by`): read only once the constructor has set the index.
  readonly #rows = $derived.by(() => this.index.wireAt(this.#moment));
  readonly #faults = $derived.by(() => this.index.faultsAt(this.#moment));
  /** The moment as the tasks read it: a new object only when the moment moves (not the cursor between events). */
  readonly #at = $derived.by((): ReplayMoment => ({
    index: this.index,
    n: this.#moment,
    startedAt: this.#startedAt,
  }));
  readonly #met = $derived.by(() => this.index.tasksMetBy(this.#moment));
  /** A new list only when a task is met or left behind, so the card window plans again only then. */
  readonly #tasks = $derived.by(() => this.#listed.slice(0, this.#met).reverse());
  /** Every task of the run, in the order met, one object each for the whole replay. */
  readonly #listed: readonly ReplayListedTask[];
  readonly #byId: ReadonlyMap<string, ReplayListedTask>;
  /** Epoch ms of the run's first event (its `recordedAt`). */
  readonly #startedAt: number;
  /** The task whose detail is open (by id, so it follows the task from moment to moment). */
  #detailId = $state<string | undefined>();

  constructor(index: RunIndex, origin: ReplayOrigin, ticker: Ticker) {
    this.index = index;
    this.origin = origin;
    this.#startedAt = Date.parse(origin.recordedAt);
    this.player = new ReplayPlayer(index, ticker);
    this.stagger = new FrameStagger(ticker);
    this.#watch = createSubscriber((update) => this.player.onChange(update));
    this.wire = new ReplayWire(this);
    this.#listed = index.taskIds.map((id) => new ReplayListedTask(id, () => this.#at));
    this.#byId = new Map(this.#listed.map((task) => [task.taskId, task]));
  }

  /** Ms since the run began. */
  get cursor(): number {
    this.#watch();
    return this.player.cursor;
  }

  get duration(): number {
    return this.index.duration;
  }

  get playing(): boolean {
    this.#watch();
    return this.player.playing;
  }

  get speed(): number {
    this.#watch();
    return this.player.speed;
  }

  /** Events that have happened at the cursor, of all there are. */
  get moment(): number {
    return this.#moment;
  }

  get rows(): readonly WireRow[] {
    return this.#rows;
  }

  get faults(): readonly FaultNotice[] {
    return this.#faults;
  }

  /** Every task met by the cursor's moment, newest first: each is the same object at every moment (`now` is the task then). */
  get tasks(): readonly ReplayListedTask[] {
    return this.#tasks;
  }

  /** The listed task whose detail is open, once met by the cursor's moment. */
  get open(): ReplayListedTask | undefined {
    const id = this.#detailId;
    const listed = id === undefined ? undefined : this.#byId.get(id);
    return listed?.now ? listed : undefined;
  }

  /** The task whose detail is open, as it stood at the cursor (undefined before the task appears). */
  get detail(): ReplayTask | undefined {
    return this.open?.now;
  }

  /** Epoch ms at the cursor, on the recording's clock (the timeline's "now"). */
  get now(): number {
    return this.#startedAt + this.cursor;
  }

  openDetail(taskId: string): void {
    this.#detailId = taskId;
  }

  closeDetail(): void {
    this.#detailId = undefined;
  }

  /** How many messages had crossed by the cursor, of all the run holds. */
  get messagesShown(): { shown: number; total: number } {
    return {
      shown: this.index.countOf('wire', this.#moment),
      total: this.index.countOf('wire', this.index.events.length),
    };
  }

  toggle(): void {
    this.player.toggle();
  }

  seek(t: number): void {
    this.player.seek(t);
  }

  /** The slider's input: one seek per frame, to the newest time asked (`ReplayPlayer.scrub`). */
  scrub(t: number): void {
    this.player.scrub(t);
  }

  setSpeed(speed: number): void {
    this.player.setSpeed(speed);
  }

  step(direction: 'back' | 'forward', target: StepTarget): void {
    if (direction === 'back') this.player.stepBack(target);
    else this.player.stepForward(target);
  }

  close(): void {
    this.player.close();
    this.stagger.close();
  }
}
