/**
 * The smallest follower of many tasks that keeps the page's schedule (T12:
 * each task's next `tasks/get` leaves the interval after its previous one was
 * sent, and no sooner than the interval less its slack after that one's
 * answer: `nextPollDueAt`, the machine's own rule), on plain `setTimeout`: no machine, no journal, no UI. Bench only
 * (bench/schedule-floor.ts): what the schedule itself achieves on this
 * machine, against which the page's own figure is read.
 *
 * Every timestamp it needs is its own (one `performance.now()` per send,
 * answer and timer), so it splits each cycle for free: the round trip
 * (send to answer) and the lateness past the time the poll was due.
 *
 * Polls leave in bursts: the tasks start in groups of `burst`, spread evenly
 * over one interval, and with `grouped`, the answers handled in one task of
 * the event loop share one timer, set when that task is over for the latest
 * due of them (so none leaves sooner than it is due) and sending all their polls
 * at once. Without it, each answer sets its own timer, and polls leave one
 * by one.
 */
import { nextPollDueAt } from '../src/machines/task-machine-timing.ts';

/** How polls reach the server: `send` hands over a burst, the follower hears each answer through `answered`. */
export interface PollLink {
  send(taskIds: readonly string[]): void;
  /** Closes the link, once every poll is answered. */
  close(): void;
}

export interface FollowerOptions {
  pollMs: number;
  /** Polls per group at the start (1: one by one). */
  burst: number;
  /** Answers handled in one task share one timer (and leave as one burst); otherwise a timer per answer. */
  grouped: boolean;
  /** Runs a callback once the current task is over (a MessageChannel message); tests give a simulated clock's. */
  afterThisTask?: (callback: () => void) => void;
}

/** What a measured window saw. */
export interface FollowerRecord {
  /** The window's length, ms. */
  ms: number;
  /** `tasks/get` sent in the window. */
  sent: number;
  /** Per poll sent in the window: the round trip of the answer it follows, ms. */
  roundTrips: number[];
  /** Per poll sent in the window: how long after it was due (`nextPollDueAt`) it left, ms. */
  late: number[];
  /** Per timer fired in the window: how long after the time it was set for, ms. */
  timerLate: number[];
  /** Polls per `postMessage` that left the page in the window (the link counts them at its port). */
  pollsPerPost: number[];
  /** Answers per `postMessage` that reached the page in the window (the link counts them at its port). */
  answersPerPost: number[];
  /** Answers that were errors or could not be matched (the bench fails on any). */
  errors: string[];
}

const now = (): number => performance.now();

/** Runs `callback` in a later task of the event loop, after every microtask of this one. */
function afterThisTask(callback: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    callback();
  };
  channel.port2.postMessage(undefined);
}

export class FloorFollower {
  readonly #taskIds: readonly string[];
  readonly #options: FollowerOptions;
  readonly #link: (follower: FloorFollower) => PollLink;
  #sendTo: PollLink | undefined;
  readonly #sentAt = new Map<string, number>();
  readonly #roundTrip = new Map<string, number>();
  /** When each task's next poll is due (T12, `nextPollDueAt`). */
  readonly #dueAt = new Map<string, number>();
  /** The answers handled in the current task, waiting for their shared timer (grouped only). */
  #group: string[] | undefined;
  #outstanding = 0;
  #stopped = false;
  #measuring = false;
  #record: FollowerRecord = FloorFollower.#empty();
  #windowStart = 0;
  #drained: (() => void) | undefined;
  /** Kept from the start, warm-up included: any error makes the run's figures meaningless. */
  readonly #errors: string[] = [];

  constructor(
    taskIds: readonly string[],
    options: FollowerOptions,
    link: (follower: FloorFollower) => PollLink,
  ) {
    this.#taskIds = taskIds;
    this.#options = options;
    this.#link = link;
  }

  static #empty(): FollowerRecord {
    return {
      ms: 0,
      sent: 0,
      roundTrips: [],
      late: [],
      timerLate: [],
      pollsPerPost: [],
      answersPerPost: [],
      errors: [],
    };
  }

  /** Starts every task's polling: groups of `burst`, spread over one interval. */
  start(): void {
    this.#sendTo = this.#link(this);
    const { burst, pollMs } = this.#options;
    const groups = Math.ceil(this.#taskIds.length / burst);
    for (let g = 0; g < groups; g++) {
      const ids = this.#taskIds.slice(g * burst, (g + 1) * burst);
      const setFor = now() + (g * pollMs) / groups;
      setTimeout(() => this.#fire(ids, setFor), (g * pollMs) / groups);
    }
  }

  /** Keeps what happens from now until {@link stop}. */
  measure(): void {
    this.#record = FloorFollower.#empty();
    this.#windowStart = now();
    this.#measuring = true;
  }

  /** Sends no more polls; resolves with the window's record once every poll in flight is answered. */
  async stop(): Promise<FollowerRecord> {
    const record = this.#record;
    record.ms = now() - this.#windowStart;
    this.#measuring = false;
    this.#stopped = true;
    if (this.#outstanding > 0) await new Promise<void>((done) => (this.#drained = done));
    this.#sendTo?.close();
    record.errors = this.#errors;
    return record;
  }

  /** The link posted one `postMessage` carrying `polls` polls. */
  posted(polls: number): void {
    if (this.#measuring) this.#record.pollsPerPost.push(polls);
  }

  /** The link received one `postMessage` carrying `answers` answers. */
  heard(answers: number): void {
    if (this.#measuring) this.#record.answersPerPost.push(answers);
  }

  /** The link heard `taskId`'s answer (or an error: `error` says what). */
  answered(taskId: string, error?: string): void {
    const at = now();
    this.#outstanding--;
    if (error !== undefined) this.#errors.push(`${taskId}: ${error}`);
    const sentAt = this.#sentAt.get(taskId);
    if (sentAt === undefined) this.#errors.push(`${taskId}: an answer to no poll`);
    else this.#roundTrip.set(taskId, at - sentAt);
    const dueAt = nextPollDueAt(sentAt ?? at, at, this.#options.pollMs);
    this.#dueAt.set(taskId, dueAt);
    if (this.#stopped) {
      if (this.#outstanding === 0) this.#drained?.();
      return;
    }
    if (!this.#options.grouped) {
      setTimeout(() => this.#fire([taskId], dueAt), Math.ceil(dueAt - at));
      return;
    }
    if (this.#group) {
      this.#group.push(taskId);
      return;
    }
    const group = (this.#group = [taskId]);
    (this.#options.afterThisTask ?? afterThisTask)(() => {
      this.#group = undefined;
      // The latest due of the group sets the time, so no task of it leaves sooner than it is due.
      const setFor = Math.max(...group.map((id) => this.#dueAt.get(id)!));
      // Whole ms, rounded up: Chromium runs a timer up to a millisecond before a fractional delay.
      setTimeout(() => this.#fire(group, setFor), Math.max(0, Math.ceil(setFor - now())));
    });
  }

  #fire(taskIds: readonly string[], setFor: number): void {
    if (this.#stopped) return;
    const at = now();
    if (this.#measuring) {
      const record = this.#record;
      record.timerLate.push(at - setFor);
      record.sent += taskIds.length;
      for (const taskId of taskIds) {
        const dueAt = this.#dueAt.get(taskId);
        const roundTrip = this.#roundTrip.get(taskId);
        // A task's first poll follows no answer.
        if (dueAt === undefined || roundTrip === undefined) continue;
        record.roundTrips.push(roundTrip);
        record.late.push(at - dueAt);
      }
    }
    for (const taskId of taskIds) this.#sentAt.set(taskId, at);
    this.#outstanding += taskIds.length;
    this.#sendTo!.send(taskIds);
  }
}
