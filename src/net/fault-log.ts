/**
 * Every fault the network injected, with its time: the data the fault
 * panel lists and the timelines and sequence view mark. Packet events name
 * the message (method, taskId) when the network could tell.
 */
import type { LinkConditions, LinkDirection } from './link-conditions.ts';
import type { LossReason } from './net-marks.ts';

/** What a packet's fault event names: the message, when the network could tell. */
export interface PacketFacts {
  direction: LinkDirection;
  packet: number;
  link: number;
  method?: string;
  taskId?: string;
}

/** One fault event; `seq` orders events that share a millisecond. */
export type FaultEvent = { seq: number; at: number } & (
  | ({ kind: 'packet.lost'; reason: LossReason } & PacketFacts)
  | ({ kind: 'packet.duplicated' } & PacketFacts)
  | ({ kind: 'packet.reordered'; heldMs?: number } & PacketFacts)
  | { kind: 'link.opened'; link: number }
  | { kind: 'link.dropped'; link: number; reason: string; inFlight: number }
  | { kind: 'connect.refused'; reason: string }
  | { kind: 'network.offline'; untilAt: number }
  | { kind: 'network.online' }
  | { kind: 'server.killed'; generation: number }
  | { kind: 'server.started'; generation: number }
  /** One server node of a cluster behind the page's balancer (1 to 5), and its worker's number. */
  | {
      kind: 'node.killed' | 'node.started' | 'node.cut' | 'node.rejoined';
      node: number;
      generation: number;
    }
  | { kind: 'rule.fired'; ruleId: string; rule: string; packet: number; taskId?: string }
  | { kind: 'conditions.changed'; conditions: LinkConditions; seed: number }
);

export type FaultKind = FaultEvent['kind'];

/** A new event without `seq` and `at`, which the log assigns. */
export type FaultEventInit = FaultEvent extends infer E
  ? E extends FaultEvent
    ? Omit<E, 'seq' | 'at'>
    : never
  : never;

/** Events that hit every task at once: the link, the network, the server (or one of its nodes). */
export function isGlobalFault(event: FaultEvent): boolean {
  return (
    event.kind.startsWith('link.') ||
    event.kind.startsWith('network.') ||
    event.kind.startsWith('server.') ||
    event.kind.startsWith('node.') ||
    event.kind === 'connect.refused'
  );
}

/**
 * Events the log keeps for context that break nothing: a link opened, the
 * network back, a server or node (re)started or back behind the balancer,
 * the conditions set. The log shows them muted and its count leaves them
 * out: a clean start's "link #1 opened" is not a fault.
 */
export function breaksNothing(event: FaultEvent): boolean {
  return (
    event.kind === 'link.opened' ||
    event.kind === 'network.online' ||
    event.kind === 'server.started' ||
    event.kind === 'node.started' ||
    event.kind === 'node.rejoined' ||
    event.kind === 'conditions.changed'
  );
}

/** The fault log's count in words: "no faults", "1 fault", "3 faults" (calm events not counted). */
export function faultCount(events: readonly FaultEvent[]): string {
  const faults = events.filter((event) => !breaksNothing(event)).length;
  return faults === 0 ? 'no faults' : faults === 1 ? '1 fault' : `${faults} faults`;
}

/**
 * The events that concern one task, for its timeline: faults on messages
 * about it, rules its messages fired, and every link, network and server fault.
 */
export function faultsForTask(events: readonly FaultEvent[], taskId: string): FaultEvent[] {
  return events.filter(
    (event) => ('taskId' in event && event.taskId === taskId) || isGlobalFault(event),
  );
}

/** One line a person can read, e.g. `lost ← tasks/get (loss)`. */
export function describeFault(event: FaultEvent): string {
  const arrow = (direction: LinkDirection): string => (direction === 'out' ? '→' : '←');
  const what = (e: PacketFacts): string =>
    `${arrow(e.direction)} ${e.method ?? 'message'}${e.taskId ? ` ${e.taskId.slice(0, 8)}` : ''}`;
  switch (event.kind) {
    case 'packet.lost':
      return `lost ${what(event)} (${event.reason === 'loss' ? 'loss rate' : event.reason === 'link-dropped' ? 'link dropped' : 'rule'})`;
    case 'packet.duplicated':
      return `duplicated ${what(event)}`;
    case 'packet.reordered':
      return `reordered ${what(event)}`;
    case 'link.opened':
      return `link #${event.link} opened`;
    case 'link.dropped':
      return `link #${event.link} dropped: ${event.reason}${event.inFlight > 0 ? ` (${event.inFlight} in flight lost)` : ''}`;
    case 'connect.refused':
      return `connect refused: ${event.reason}`;
    case 'network.offline':
      return `network offline for ${Math.round((event.untilAt - event.at) / 1000)} s`;
    case 'network.online':
      return 'network back online';
    case 'server.killed':
      return `server worker #${event.generation} killed`;
    case 'server.started':
      return `server worker #${event.generation} started`;
    case 'node.killed':
      return `node ${event.node} killed (worker #${event.generation})`;
    case 'node.started':
      return `node ${event.node} started (worker #${event.generation})`;
    case 'node.cut':
      return `node ${event.node} cut off from the balancer`;
    case 'node.rejoined':
      return `node ${event.node} reachable again`;
    case 'rule.fired':
      return `rule fired: ${event.rule}`;
    case 'conditions.changed':
      return `conditions changed (seed ${event.seed})`;
  }
}

/** A bounded, append-only event log with listeners. */
export class FaultLog {
  readonly #events: FaultEvent[] = [];
  readonly #listeners = new Set<(event: FaultEvent) => void>();
  readonly #limit: number;
  #seq = 0;

  constructor(limit = 5000) {
    this.#limit = limit;
  }

  get events(): readonly FaultEvent[] {
    return this.#events;
  }

  add(at: number, init: FaultEventInit): FaultEvent {
    const event = { ...init, seq: ++this.#seq, at } as FaultEvent;
    this.#events.push(event);
    if (this.#events.length > this.#limit)
      this.#events.splice(0, this.#events.length - this.#limit);
    for (const listener of this.#listeners) listener(event);
    return event;
  }

  /** Calls `listener` for every new event; returns the unsubscribe function. */
  subscribe(listener: (event: FaultEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  clear(): void {
    this.#events.length = 0;
  }
}
