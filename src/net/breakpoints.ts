/**
 * Breakpoints on the simulated network: "pause when a `tasks/cancel` is in
 * flight", "pause on a message whose method / taskId / status matches". They
 * are checked as a message enters the network (`FaultyNetwork.onEnter`), so
 * the world clock pauses with that message in flight: sent, not yet
 * delivered, and its delivery waits for resume or step like every timer.
 */
import type { EnteringMessage } from './faulty-network.ts';
import { Method } from '../protocol/constants.ts';
import type { MessageInfo } from './message-info.ts';

export type Breakpoint =
  /** A `tasks/cancel` request leaves the page (T17): the race with the job's last step, held still. */
  | { kind: 'cancel-in-flight' }
  /** A message, either way, whose every given field is equal (a response names its request's method). */
  | { kind: 'match'; method?: string; taskId?: string; status?: string };

/** A breakpoint set, with the id it is removed by. */
export type SetBreakpoint = Breakpoint & { id: number };

/** What a breakpoint says on screen and as the pause's reason. */
export function describeBreakpoint(breakpoint: Breakpoint): string {
  if (breakpoint.kind === 'cancel-in-flight') return 'a tasks/cancel in flight';
  const parts = [
    breakpoint.method && `method ${breakpoint.method}`,
    breakpoint.taskId && `taskId ${breakpoint.taskId}`,
    breakpoint.status && `status ${breakpoint.status}`,
  ].filter(Boolean);
  return `a message with ${parts.join(', ')}`;
}

/**
 * Which message `breakpoint` pauses at next, once resumed while still set:
 * "the next tasks/get, sent or answered" (a match looks both ways, so a
 * breakpoint on a method pauses at every request and every answer).
 */
export function nextHitWords(breakpoint: Breakpoint): string {
  if (breakpoint.kind === 'cancel-in-flight') return 'the next tasks/cancel sent';
  const task = breakpoint.taskId ? ` of task ${breakpoint.taskId.slice(0, 8)}` : '';
  // Only answers and notifications carry a status: such a match never pauses on a request.
  const way = breakpoint.status ? ` with status ${breakpoint.status}` : ', sent or answered';
  return `the next ${breakpoint.method ?? 'message'}${task}${way}`;
}

/** Whether a message entering the network hits `breakpoint`. A match with no field never hits. */
export function hits(breakpoint: Breakpoint, entry: EnteringMessage): boolean {
  const { info, direction } = entry;
  if (breakpoint.kind === 'cancel-in-flight')
    return direction === 'out' && info.kind === 'request' && info.method === Method.tasksCancel;
  const fields: (keyof MessageInfo & keyof typeof breakpoint)[] = ['method', 'taskId', 'status'];
  const given = fields.filter((field) => breakpoint[field]);
  return given.length > 0 && given.every((field) => info[field] === breakpoint[field]);
}

/**
 * A breakpoint's pause: `reason`, whole, is the world clock's (tooltips, logs);
 * `words`, short enough for the header at any width, say which message hit
 * ("tasks/cancel sent", "tasks/get answered: completed").
 */
export interface BreakpointHit {
  readonly reason: string;
  readonly words: string;
}

/** The pause `breakpoint` makes when `entry` hits it. */
export function hitOf(breakpoint: Breakpoint, entry: EnteringMessage): BreakpointHit {
  const { info, direction } = entry;
  const way = direction === 'out' ? 'sent' : 'answered';
  const what = [info.method, info.taskId && `task ${info.taskId.slice(0, 8)}`]
    .filter(Boolean)
    .join(' ');
  const status = breakpoint.kind === 'match' && breakpoint.status ? `: ${info.status}` : '';
  return {
    reason: `breakpoint: ${describeBreakpoint(breakpoint)} (${way}: ${what || info.kind})`,
    words: `${info.method ?? info.kind} ${way}${status}`,
  };
}

/** The breakpoints set on the page, checked on every message entering the network. */
export class Breakpoints {
  readonly #set: SetBreakpoint[] = [];
  readonly #listeners = new Set<() => void>();
  readonly #pause: (reason: string) => void;
  #nextId = 1;
  #lastHit: (BreakpointHit & { breakpoint: SetBreakpoint }) | undefined;

  /** `pause` is called with the reason when a message hits one (the world clock's pause). */
  constructor(
    network: { onEnter(listener: (entry: EnteringMessage) => void): () => void },
    pause: (reason: string) => void,
  ) {
    this.#pause = pause;
    network.onEnter((entry) => this.#check(entry));
  }

  get list(): readonly SetBreakpoint[] {
    return this.#set;
  }

  /**
   * The last pause a breakpoint made, and the breakpoint, whether or not the world is
   * still paused by it: a reader matches its `reason` with the clock's own.
   */
  get lastHit(): (BreakpointHit & { readonly breakpoint: SetBreakpoint }) | undefined {
    return this.#lastHit;
  }

  /** Sets a breakpoint; a match with no field is refused (it could never hit). */
  add(breakpoint: Breakpoint): SetBreakpoint | undefined {
    if (
      breakpoint.kind === 'match' &&
      !breakpoint.method &&
      !breakpoint.taskId &&
      !breakpoint.status
    )
      return undefined;
    const set = { ...breakpoint, id: this.#nextId++ };
    this.#set.push(set);
    this.#emit();
    return set;
  }

  remove(id: number): void {
    const index = this.#set.findIndex((b) => b.id === id);
    if (index < 0) return;
    this.#set.splice(index, 1);
    this.#emit();
  }

  /** Called when the set changes; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #check(entry: EnteringMessage): void {
    const hit = this.#set.find((breakpoint) => hits(breakpoint, entry));
    if (!hit) return;
    this.#lastHit = { ...hitOf(hit, entry), breakpoint: hit };
    this.#pause(this.#lastHit.reason);
  }

  #emit(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
