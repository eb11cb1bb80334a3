/**
 * The world clock: one time for everything that decides what the protocol
 * does (poll schedules, backoffs, request timeouts, the simulated network's
 * latency, the server's job steps, leases and TTLs). It runs on a wall clock
 * (the real one in the page, a simulated one in tests) and can be paused,
 * slowed down or sped up, and stepped to its next timer while paused. A
 * paused world holds every timer where it is; on resume each goes on with
 * the world time it had left, so at 0.5x a 1 s poll interval takes 2 s of
 * wall time. A playground control, not protocol.
 */
import TinyQueue from 'tinyqueue';
import { wholeTasks, type Slices } from './frame-slices.ts';
import { realTimers, type Timers } from './timers.ts';

/** The slowest and fastest the world may run, as a multiple of wall time. */
export const MIN_RATE = 0.1;
export const MAX_RATE = 4;
/** The longest one wall timer may wait (setTimeout's 32-bit limit); a longer wait re-arms. */
const MAX_WALL_WAIT_MS = 2_147_483_647;

/** What another world clock needs to follow this one (the server worker's, through its control channel). */
export interface WorldClockState {
  paused: boolean;
  rate: number;
  /** World ms at the moment the state was taken. */
  now: number;
  /** The wall clock's ms at that moment, so a follower that reads the state late can catch up. */
  wallAt?: number;
}

interface WorldTimer {
  due: number;
  seq: number;
  callback: () => void;
}

/** Earliest due first; timers due at the same time in the order they were set. */
const earlierFirst = (a: WorldTimer, b: WorldTimer): number => a.due - b.due || a.seq - b.seq;

/** Clamps a requested rate to what the world clock runs at. */
export function clampRate(rate: number): number {
  if (!Number.isFinite(rate)) return 1;
  return Math.min(MAX_RATE, Math.max(MIN_RATE, rate));
}

export class WorldClock implements Timers {
  readonly #wall: Timers;
  /** The timers waiting, by id: clearing one only removes it here. */
  readonly #timers = new Map<number, WorldTimer>();
  /**
   * The same timers as a heap, earliest first, so setting a timer and
   * finding the next one due cost O(log n) however many wait (a page
   * following 1,000 tasks keeps thousands: a poll timer per task, a timeout
   * per request, the network's latencies), not a scan of all of them per
   * timer fired. Cleared timers stay in the heap until they reach its top,
   * where they are dropped ({@link #earliest}).
   */
  readonly #queue = new TinyQueue<WorldTimer>([], earlierFirst);
  readonly #listeners = new Set<() => void>();
  #nextId = 1;
  #paused = false;
  #rate = 1;
  #reason: string | undefined;
  /** World time at {@link #anchorWall}; while paused, the world time itself. */
  #anchorWorld: number;
  #anchorWall: number;
  /** The wall and world times {@link now} last read, so a wall clock set back does not take the world back. */
  #lastWall: number;
  #lastWorld: number;
  /** Whether {@link sync} has set this clock's time once (a fresh follower takes the leader's time as it is). */
  #synced = false;
  /** The one wall timer, set for the earliest world timer (no handle: a later task of {@link #slices}). */
  #armed: { handle?: unknown; due: number } | undefined;
  /** Where a round of due timers is cut so a frame can be drawn (the page's main thread); whole elsewhere. */
  readonly #slices: Slices;

  /**
   * Starts at the wall clock's time, running at 1x. `slices` cut a round of
   * timers falling due together into several tasks when a frame is due
   * (`pageSlices()` on the page): later, never sooner, in order.
   */
  constructor(wall: Timers = realTimers, options: { slices?: Slices } = {}) {
    this.#wall = wall;
    this.#slices = options.slices ?? wholeTasks;
    this.#anchorWall = this.#lastWall = wall.now();
    this.#anchorWorld = this.#lastWorld = this.#anchorWall;
  }

  /** World ms: the wall clock's time less every pause, scaled by the rate since each change. */
  now(): number {
    if (this.#paused) return this.#anchorWorld;
    const wall = this.#wall.now();
    if (wall < this.#lastWall) {
      // The wall clock was set back (the system's time, a test's fake clock): the world goes on
      // from where it stood, or timers set before would wait out the difference again.
      this.#anchorWorld = this.#lastWorld;
      this.#anchorWall = wall;
    }
    const world = Math.floor(this.#anchorWorld + (wall - this.#anchorWall) * this.#rate);
    this.#lastWall = wall;
    this.#lastWorld = world;
    return world;
  }

  /** The wall clock's ms, to show beside {@link now}. */
  wallNow(): number {
    return this.#wall.now();
  }

  get paused(): boolean {
    return this.#paused;
  }

  get rate(): number {
    return this.#rate;
  }

  /** Why the world paused, when a breakpoint paused it ("tasks/cancel in flight"). */
  get reason(): string | undefined {
    return this.#reason;
  }

  /** How many timers wait on this clock. */
  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** The world time of the next timer due, if any. */
  get nextDue(): number | undefined {
    return this.#earliest()?.due;
  }

  /** What a follower clock needs to keep the same time. */
  get state(): WorldClockState {
    return { paused: this.#paused, rate: this.#rate, now: this.now(), wallAt: this.#wall.now() };
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#nextId++;
    const due = this.now() + Math.max(0, Number.isFinite(ms) ? ms : 0);
    const timer = { due, seq: id, callback };
    this.#timers.set(id, timer);
    this.#queue.push(timer);
    if (!this.#paused && (!this.#armed || due < this.#armed.due)) this.#armWall(due);
    return id;
  }

  clearTimeout(handle: unknown): void {
    // Lazy: a wall timer set for it finds nothing due and re-arms for the next.
    if (typeof handle === 'number') this.#timers.delete(handle);
  }

  /** Work due now runs after the current synchronous work, unless the world paused meanwhile: then it waits like a timer. */
  soon(callback: () => void): void {
    const wallSoon = this.#wall.soon;
    if (this.#paused || !wallSoon) {
      this.setTimeout(callback, 0);
      return;
    }
    wallSoon(() => {
      if (this.#paused) this.setTimeout(callback, 0);
      else callback();
    });
  }

  /** Stops the world: no timer fires until {@link resume} or {@link step}. `reason` says why (a breakpoint). */
  pause(reason?: string): void {
    if (this.#paused) return;
    this.#anchorWorld = this.now();
    this.#paused = true;
    this.#reason = reason;
    this.#disarm();
    this.#emit();
  }

  /** Lets the world run on from where it stopped. */
  resume(): void {
    if (!this.#paused) return;
    this.#anchorWall = this.#wall.now();
    this.#paused = false;
    this.#reason = undefined;
    this.#anchored();
    this.#arm();
    this.#emit();
  }

  /** Runs the world at `rate` times wall time (clamped to 0.1x..4x); timers keep their world due times. */
  setRate(rate: number): void {
    const next = clampRate(rate);
    if (next === this.#rate) return;
    this.#anchorWorld = this.now();
    this.#anchorWall = this.#wall.now();
    this.#rate = next;
    this.#anchored();
    if (!this.#paused) {
      this.#disarm();
      this.#arm();
    }
    this.#emit();
  }

  /**
   * Pauses (if running), moves world time on to the next timer due and runs
   * every timer due by then; the world stays paused. False when no timer waits.
   */
  step(): boolean {
    this.pause(this.#reason);
    const next = this.#earliest();
    if (!next) return false;
    this.#anchorWorld = Math.max(this.#anchorWorld, next.due);
    this.#lastWorld = this.#anchorWorld;
    this.#fireDue();
    this.#emit();
    return true;
  }

  /**
   * Follows another world clock's state (the page's, in the server worker):
   * the first time, takes its time as it is; after that never goes back in
   * time (the message took a moment to come), and a paused state that is
   * ahead runs what fell due.
   */
  sync(state: WorldClockState): void {
    const rate = clampRate(state.rate);
    // A running world moved on while the message waited (a worker boots before it reads it).
    const late =
      state.paused || state.wallAt === undefined ? 0 : Math.max(0, this.#wall.now() - state.wallAt);
    const told = Math.floor(state.now + late * rate);
    this.#anchorWorld = this.#synced ? Math.max(this.now(), told) : told;
    this.#synced = true;
    this.#anchorWall = this.#wall.now();
    this.#anchored();
    this.#rate = rate;
    this.#paused = state.paused;
    if (!state.paused) this.#reason = undefined;
    this.#disarm();
    if (state.paused) this.#fireDue();
    else this.#arm();
    this.#emit();
  }

  /** Called after every pause, resume, rate change, step and sync; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The anchors just set are where {@link now} last stood. */
  #anchored(): void {
    this.#lastWall = this.#anchorWall;
    this.#lastWorld = this.#anchorWorld;
  }

  #emit(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  /** The earliest timer still set, dropping cleared ones from the heap's top. */
  #earliest(): WorldTimer | undefined {
    let first = this.#queue.peek();
    while (first && this.#timers.get(first.seq) !== first) {
      this.#queue.pop();
      first = this.#queue.peek();
    }
    return first;
  }

  #arm(): void {
    if (this.#paused) return;
    const next = this.#earliest();
    if (!next) {
      this.#disarm();
      return;
    }
    if (this.#armed?.due === next.due) return;
    this.#armWall(next.due);
  }

  #armWall(due: number): void {
    this.#disarm();
    const wait = Math.min(
      MAX_WALL_WAIT_MS,
      Math.max(0, Math.ceil((due - this.now()) / this.#rate)),
    );
    const armed = {
      due,
      handle: this.#wall.setTimeout(() => {
        if (this.#armed !== armed) return;
        this.#armed = undefined;
        this.#fireDue(true);
      }, wait),
    };
    this.#armed = armed;
  }

  /** Goes on with a round cut short (its rest is due already), in a later task: a frame may be drawn first. */
  #armLater(due: number): void {
    this.#disarm();
    const armed = { due };
    this.#slices.later(() => {
      if (this.#armed !== armed) return;
      this.#armed = undefined;
      this.#fireDue(true);
    });
    this.#armed = armed;
  }

  #disarm(): void {
    if (this.#armed && 'handle' in this.#armed) this.#wall.clearTimeout(this.#armed.handle);
    this.#armed = undefined;
  }

  /**
   * Runs the timers due now, earliest first (those they set run later, as
   * with real timers), then re-arms. `sliced` (a wall timer's round): once
   * the slices say a frame is due, the rest wait, still due and in their
   * order, for a later task; a step or a sync runs them all.
   */
  #fireDue(sliced = false): void {
    const now = this.now();
    const startedAt = this.#slices.now();
    // A timer a callback sets waits for the next round, even if due: its seq is past this bound,
    // and it sorts after every timer already due (their due is at most now, its own at least).
    const lastOfRound = this.#nextId;
    let fired = 0;
    for (
      let timer = this.#earliest();
      timer && timer.due <= now && timer.seq < lastOfRound;
      timer = this.#earliest()
    ) {
      if (sliced && fired > 0 && this.#slices.shouldYield(startedAt, fired)) {
        // A callback may have paused the world: then the rest wait for resume or step, as every timer does.
        if (!this.#paused) this.#armLater(timer.due);
        return;
      }
      fired++;
      this.#queue.pop();
      this.#timers.delete(timer.seq);
      try {
        timer.callback();
      } catch (error) {
        // As a real timer would: the error surfaces, the other timers still run.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    this.#arm();
  }
}
