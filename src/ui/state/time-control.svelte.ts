/**
 * The header's time control over the page's world time (src/session/world-time.ts):
 * pause, resume, step to the next timer, the speed, and the breakpoints. The
 * clock's state is read from the clock itself (re-read when it says it
 * changed), never mirrored; only the breakpoint form's fields live here.
 */
import { createSubscriber } from 'svelte/reactivity';
import { MAX_RATE, MIN_RATE } from '../../clock/world-clock.ts';
import { describeBreakpoint, nextHitWords, type SetBreakpoint } from '../../net/breakpoints.ts';
import type { WorldTime } from '../../session/world-time.ts';

/** The speeds offered: slow motion from 0.1x, and faster than life up to 4x. */
export const RATES = [0.1, 0.25, 0.5, 1, 2, 4].filter((r) => r >= MIN_RATE && r <= MAX_RATE);

/** How often the world and wall times on screen are redrawn while shown (display only). */
const READOUT_EVERY_MS = 100;

export class TimeControl {
  readonly #world: WorldTime;
  readonly #changed: () => void;
  readonly #ticking: () => void;
  /** The "pause on a message" form. */
  method = $state('');
  taskId = $state('');
  status = $state('');

  constructor(world: WorldTime) {
    this.#world = world;
    this.#changed = createSubscriber((update) => {
      const stops = [world.clock.subscribe(update), world.breakpoints.subscribe(update)];
      return () => stops.forEach((stop) => stop());
    });
    this.#ticking = createSubscriber((update) => {
      const timer = setInterval(update, READOUT_EVERY_MS);
      return () => clearInterval(timer);
    });
  }

  get paused(): boolean {
    this.#changed();
    return this.#world.clock.paused;
  }

  get rate(): number {
    this.#changed();
    return this.#world.clock.rate;
  }

  /** Why the world paused, when a breakpoint paused it. */
  get reason(): string | undefined {
    this.#changed();
    return this.#world.clock.reason;
  }

  /**
   * Where a breakpoint paused the world, in a few words: `lead` "at
   * breakpoint", `what` the message that hit it ("tasks/cancel sent"). Shown
   * beside "Paused" at every width, read out in the same words ("Paused at
   * breakpoint: tasks/cancel sent"); the clock's whole reason is its
   * tooltip. Read from the clock's reason (only a breakpoint gives one), so
   * it goes on Resume.
   */
  get pausedAt(): { lead: string; what: string } | undefined {
    const reason = this.reason;
    if (reason === undefined) return undefined;
    const hit = this.#world.breakpoints.lastHit;
    return hit?.reason === reason
      ? { lead: 'at breakpoint', what: hit.words }
      : { lead: 'at', what: reason };
  }

  /**
   * While a breakpoint still set holds the world paused, which message it
   * pauses at again once resumed ("the next tasks/get, sent or answered"): a
   * breakpoint on tasks/get pauses at every answer, and a newcomer read
   * that pause again as Resume not working.
   */
  get pausesAgainAt(): string | undefined {
    const reason = this.reason;
    const hit = this.#world.breakpoints.lastHit;
    if (reason === undefined || hit?.reason !== reason) return undefined;
    return this.breakpoints.some((b) => b.id === hit.breakpoint.id)
      ? nextHitWords(hit.breakpoint)
      : undefined;
  }

  /** What Resume is called where the world is resumed: "Resume", or "Resume (pauses again at …)". */
  get resumeLabel(): string {
    const again = this.pausesAgainAt;
    return again ? `Resume (pauses again at ${again})` : 'Resume';
  }

  /** The state in a word or two, when the world does not run at 1x: "Paused", "0.25x". */
  get label(): string | undefined {
    if (this.paused) return 'Paused';
    return this.rate === 1 ? undefined : `${this.rate}x`;
  }

  /** World and wall time now (ticks while read), to show side by side while they differ. */
  get times(): { world: number; wall: number } {
    this.#changed();
    this.#ticking();
    return { world: this.#world.clock.now(), wall: this.#world.clock.wallNow() };
  }

  /** Whether the server's own timers pause too (not with a remote server: it keeps its own time). */
  get serverFollows(): boolean {
    return this.#world.serverFollows;
  }

  get breakpoints(): readonly (SetBreakpoint & { label: string })[] {
    this.#changed();
    return this.#world.breakpoints.list.map((b) => ({ ...b, label: describeBreakpoint(b) }));
  }

  /** Whether "pause when a tasks/cancel is in flight" is set. */
  get onCancel(): boolean {
    return this.breakpoints.some((b) => b.kind === 'cancel-in-flight');
  }

  /** Whether the "pause on a message" form names anything to match. */
  get canAddMatch(): boolean {
    return [this.method, this.taskId, this.status].some((field) => field.trim() !== '');
  }

  toggle(): void {
    this.#world.toggle();
  }

  /** Moves the world on to its next timer and runs it; the world stays paused. */
  step(): void {
    this.#world.clock.step();
  }

  setRate(rate: number): void {
    this.#world.clock.setRate(rate);
  }

  setOnCancel(on: boolean): void {
    const set = this.breakpoints.find((b) => b.kind === 'cancel-in-flight');
    if (on && !set) this.#world.breakpoints.add({ kind: 'cancel-in-flight' });
    if (!on && set) this.#world.breakpoints.remove(set.id);
  }

  /** Sets "pause on a message" from the form's fields (blank ones match anything), then clears them. */
  addMatch(): void {
    const field = (value: string): string | undefined => value.trim() || undefined;
    const method = field(this.method);
    const taskId = field(this.taskId);
    const status = field(this.status);
    const added = this.#world.breakpoints.add({
      kind: 'match',
      ...(method ? { method } : {}),
      ...(taskId ? { taskId } : {}),
      ...(status ? { status } : {}),
    });
    if (added) this.method = this.taskId = this.status = '';
  }

  remove(id: number): void {
    this.#world.breakpoints.remove(id);
  }
}
