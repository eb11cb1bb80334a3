/**
 * The replay's time cursor: where in the run (0..duration ms) the views
 * stand, played at a speed from 0.1x to 10x, paused, moved by hand, or
 * stepped to the next message or state change. Time comes from a `Ticker`
 * (frames and a clock), so tests drive it on a simulated clock and the page
 * on animation frames. The player holds only the cursor and the play state;
 * what the views show at the cursor is the index's (`RunIndex`).
 */
import type { ReplayEventKind } from './replay-events.ts';
import type { RunIndex } from './run-index.ts';

/** A clock and a way to be called again soon: animation frames in the page, a simulated clock in tests. */
export interface Ticker {
  now(): number;
  /** Calls `callback` once, soon; returns a function that cancels it. */
  later(callback: () => void): () => void;
}

export const MIN_SPEED = 0.1;
export const MAX_SPEED = 10;
/** The speeds the speed control offers. */
export const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 5, 10] as const;

/** What "step" moves to: a message on the wire, or anything that changed a state. */
export type StepTarget = 'message' | 'change';

const STEP_KINDS: Record<StepTarget, readonly ReplayEventKind[]> = {
  message: ['wire'],
  change: ['task', 'task-step', 'xray', 'fault', 'wire-cleared'],
};

/** The browser's ticker: animation frames and `performance.now()`. */
export const frameTicker: Ticker = {
  now: () => performance.now(),
  later(callback) {
    const frame = requestAnimationFrame(() => callback());
    return () => cancelAnimationFrame(frame);
  },
};

export class ReplayPlayer {
  readonly index: RunIndex;
  readonly #ticker: Ticker;
  readonly #listeners = new Set<() => void>();
  #cursor = 0;
  #speed = 1;
  #playing = false;
  /** Ticker time of the last advance while playing. */
  #lastTick = 0;
  #cancel: (() => void) | undefined;
  /** The newest time the slider asked for since the last tick, and the tick that will seek it. */
  #scrubTo: number | undefined;
  #cancelScrub: (() => void) | undefined;

  constructor(index: RunIndex, ticker: Ticker) {
    this.index = index;
    this.#ticker = ticker;
  }

  get duration(): number {
    return this.index.duration;
  }

  /** Where the views stand, ms since the run began. */
  get cursor(): number {
    return this.#cursor;
  }

  /** The state shown: every event at or before the cursor has happened. */
  get moment(): number {
    return this.index.momentAt(this.#cursor);
  }

  get speed(): number {
    return this.#speed;
  }

  get playing(): boolean {
    return this.#playing;
  }

  /** Called after every change of cursor, speed or play state; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Plays from the cursor (from the start again once at the end). */
  play(): void {
    if (this.#playing) return;
    if (this.#cursor >= this.duration) this.#cursor = 0;
    this.#playing = true;
    this.#lastTick = this.#ticker.now();
    this.#schedule();
    this.#changed();
  }

  pause(): void {
    if (!this.#playing) return;
    // The time played since the last frame counts: Pause stops where the run had got to.
    this.#advance();
    this.#playing = false;
    this.#cancel?.();
    this.#cancel = undefined;
    this.#changed();
  }

  toggle(): void {
    if (this.#playing) this.pause();
    else this.play();
  }

  /** Clamped to 0.1x..10x. */
  setSpeed(speed: number): void {
    const clamped = Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
    if (!Number.isFinite(clamped) || clamped === this.#speed) return;
    this.#advance();
    this.#speed = clamped;
    this.#changed();
  }

  /** Moves the cursor (clamped to the run); playing carries on from there. A scrub not made yet is dropped. */
  seek(t: number): void {
    this.#dropScrub();
    const clamped = Math.min(this.duration, Math.max(0, Number.isFinite(t) ? t : 0));
    this.#lastTick = this.#ticker.now();
    if (clamped === this.#cursor) return;
    this.#cursor = clamped;
    this.#changed();
  }

  /**
   * The slider's input: moves the cursor at the next tick, to the newest
   * time asked for by then. A pointer dragging the thumb (or a key held on
   * it) reports faster than frames, and each seek redraws the views, so a
   * drag makes one seek per frame, never a backlog of seeks to times
   * already passed.
   */
  scrub(t: number): void {
    this.#scrubTo = t;
    this.#cancelScrub ??= this.#ticker.later(() => {
      this.#cancelScrub = undefined;
      const to = this.#scrubTo;
      this.#scrubTo = undefined;
      if (to !== undefined) this.seek(to);
    });
  }

  /** A step from where the slider was dragged to, not from where the last frame had got. */
  #makeScrub(): void {
    if (this.#scrubTo !== undefined) this.seek(this.#scrubTo);
  }

  #dropScrub(): void {
    this.#cancelScrub?.();
    this.#cancelScrub = undefined;
    this.#scrubTo = undefined;
  }

  /**
   * Pauses and moves to the next message (or state change) after what is
   * shown; returns whether there was one.
   */
  stepForward(target: StepTarget): boolean {
    this.#makeScrub();
    this.pause();
    const next = this.index.nextOf(STEP_KINDS[target], this.moment);
    if (next === undefined) return false;
    this.seek(this.index.timeOf(next));
    return true;
  }

  /** Pauses and moves back to the one before the last message (or change) shown. */
  stepBack(target: StepTarget): boolean {
    this.#makeScrub();
    this.pause();
    const kinds = STEP_KINDS[target];
    const shown = this.index.previousOf(kinds, this.moment);
    if (shown === undefined) return false;
    const before = this.index.previousOf(kinds, shown);
    // Before the first one: the moment just before it happened.
    this.seek(
      before === undefined ? Math.max(0, this.index.timeOf(shown) - 1) : this.index.timeOf(before),
    );
    return true;
  }

  /** Stops the ticking; the player is not used again. */
  close(): void {
    this.#dropScrub();
    this.pause();
    this.#listeners.clear();
  }

  #schedule(): void {
    this.#cancel = this.#ticker.later(() => {
      this.#cancel = undefined;
      if (!this.#playing) return;
      this.#advance();
      if (this.#cursor >= this.duration) {
        this.#playing = false;
      } else {
        this.#schedule();
      }
      this.#changed();
    });
  }

  /** Moves the cursor by the ticker time passed since the last advance, at the speed. */
  #advance(): void {
    const now = this.#ticker.now();
    if (this.#playing) {
      this.#cursor = Math.min(this.duration, this.#cursor + (now - this.#lastTick) * this.#speed);
    }
    this.#lastTick = now;
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
