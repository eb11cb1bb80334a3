/**
 * One link through the simulated network: wraps a real Transport and applies
 * the network's conditions to every message in both directions (latency and
 * jitter, loss, duplication, reordering), fires scheduled fault rules, and
 * can be dropped with its messages in flight.
 *
 * Every message goes through one delivery queue ordered by due time, so the
 * order of delivery never depends on how a scheduler breaks ties.
 *
 * Every message passes here, so a clean link (no fault armed) must cost next
 * to nothing: per message the five draws (kept, so a seed replays the same
 * fates whatever the rates, C8), one mark, and a queue entry; fault events
 * and their facts are built only when a fault happens. Marks are handed to
 * observers as they are, not copied: observers must not change them.
 */
import { DeliveryQueue } from './delivery-queue.ts';
import type { FaultLog, PacketFacts } from './fault-log.ts';
import type { FaultRule } from './fault-rules.ts';
import {
  REORDER_HOLD_MS,
  type DirectionConditions,
  type LinkDirection,
} from './link-conditions.ts';
import { MessageTracker, type MessageInfo } from './message-info.ts';
import type { Prng } from './prng.ts';
import type { Scheduler } from './scheduler.ts';
import type { LossReason, MarkEvent, NetMark, PacketUpdate } from './net-marks.ts';
import type { RequestFailure, Transport } from './transport.ts';

/** What a link needs from the network it belongs to. */
export interface LinkContext {
  readonly scheduler: Scheduler;
  readonly log: FaultLog;
  conditions(direction: LinkDirection): DirectionConditions;
  prng(): Prng;
  nextPacket(): number;
  /** Reports a later fact about a message the page sent. */
  packetUpdate(update: PacketUpdate): void;
  /** Reports what the network did to a message, as it happens (before the message is handed on). */
  mark(event: MarkEvent): void;
  /** The armed rule this message fires, if any; it is disarmed at once. */
  takeRule(direction: LinkDirection, info: MessageInfo): FaultRule | undefined;
  /** A message enters the network, before its fate is drawn (breakpoints pause the world here). */
  entered(direction: LinkDirection, info: MessageInfo): void;
  /** Runs a fired rule's action (anything but `lose`). */
  runRule(rule: FaultRule): void;
  /** The link is closed for good. */
  closed(link: FaultyTransport): void;
}

interface InFlight {
  mark: NetMark;
  message: unknown;
  info: MessageInfo;
  /** Send order within the direction, to tell overtaking. */
  order: number;
  deliverAt: number;
  /** 2 for the network's extra copy. */
  copy: 1 | 2;
  /** Queue insertion order, the tie-breaker for equal due times. */
  seq: number;
}

function drawDelay(conditions: DirectionConditions, prng: Prng): number {
  const jitter = prng.between(-conditions.jitterMs, conditions.jitterMs);
  return Math.max(0, Math.round(conditions.latencyMs + jitter));
}

export class FaultyTransport implements Transport {
  onmessage?: (message: unknown) => void;
  onclose?: (reason: string) => void;
  onerror?: (error: Error) => void;
  onfailure?: (failure: RequestFailure) => void;
  readonly link: number;
  readonly #inner: Transport;
  readonly #ctx: LinkContext;
  readonly #tracker = new MessageTracker();
  #queue = new DeliveryQueue<InFlight>();
  #timer: unknown;
  /** The pending flush is a `soon` (a microtask), not a scheduler timer. */
  #timerIsSoon = false;
  #timerAt: number | undefined;
  #closed = false;
  #seq = 0;
  readonly #sent: Record<LinkDirection, number> = { out: 0, in: 0 };
  /** Highest send order delivered so far, per direction. */
  readonly #maxDelivered: Record<LinkDirection, number> = { out: -1, in: -1 };
  /** Send orders of first copies still in flight, per direction, in the order sent (the first is the earliest). */
  readonly #inFlight: Record<LinkDirection, Set<number>> = { out: new Set(), in: new Set() };
  /** No send order below this is in flight, per direction (see #earliestInFlight). */
  readonly #lowest: Record<LinkDirection, number> = { out: 0, in: 0 };
  /** First copies held back for reordering still in the queue, per direction: none, nothing to release. */
  readonly #held: Record<LinkDirection, number> = { out: 0, in: 0 };

  constructor(inner: Transport, link: number, ctx: LinkContext) {
    this.#inner = inner;
    this.link = link;
    this.#ctx = ctx;
    inner.onmessage = (message) => {
      if (!this.#closed) this.#enter('in', message);
    };
    inner.onclose = (reason) => this.#shut(reason, false);
    inner.onerror = (error) => this.onerror?.(error);
    // A failed HTTP exchange is no message the network could delay or lose: it is passed on as it is.
    inner.onfailure = (failure) => {
      if (!this.#closed) this.onfailure?.(failure);
    };
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Messages in the network now, both directions, extra copies included. */
  get inFlightCount(): number {
    return this.#queue.length;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  /** Puts a message into the network; its mark is reported to the network's observers before this returns. */
  async send(message: unknown): Promise<void> {
    if (this.#closed) throw new Error('transport is closed');
    this.#enter('out', message);
  }

  /** Breaks the link: everything in flight is lost, both ends see it closed. */
  close(reason = 'closed'): void {
    this.#shut(reason, true);
  }

  #enter(direction: LinkDirection, message: unknown): void {
    const { scheduler, log } = this.#ctx;
    const conditions = this.#ctx.conditions(direction);
    const prng = this.#ctx.prng();
    const info = this.#tracker.describe(direction, message);
    // First: a breakpoint that pauses the world here holds this message's delivery too.
    this.#ctx.entered(direction, info);
    const now = scheduler.now();
    // Always five draws in this order, so a seed replays the same fates whatever the rates.
    const lose = prng.chance(conditions.lossRate);
    const delay = drawDelay(conditions, prng);
    const duplicate = prng.chance(conditions.duplicateRate);
    const copyDelay = drawDelay(conditions, prng);
    const hold = prng.chance(conditions.reorderRate);

    const mark: NetMark = {
      packet: this.#ctx.nextPacket(),
      link: this.link,
      direction,
      sentAt: now,
      delayMs: delay,
    };
    if (lose) {
      mark.lost = 'loss';
      mark.delayMs = 0; // It never travelled.
      log.add(now, { kind: 'packet.lost', reason: 'loss', ...this.#facts(mark, info) });
      this.#ctx.mark({ transport: this, message, mark, delivered: false });
      return;
    }
    const order = this.#sent[direction]++;
    this.#inFlight[direction].add(order);
    if (hold) {
      mark.heldMs = REORDER_HOLD_MS;
      mark.delayMs = delay + REORDER_HOLD_MS;
      this.#held[direction]++;
    }
    this.#enqueue({
      mark,
      message,
      info,
      order,
      deliverAt: now + mark.delayMs,
      copy: 1,
      seq: this.#seq++,
    });
    if (duplicate) {
      mark.duplicated = true;
      log.add(now, { kind: 'packet.duplicated', ...this.#facts(mark, info) });
      this.#enqueue({
        mark: { ...mark, delayMs: copyDelay },
        message,
        info,
        order,
        deliverAt: now + copyDelay,
        copy: 2,
        seq: this.#seq++,
      });
    }
    // A received message is reported when it comes out (#deliver); a sent one now, as the sender logs it.
    // Its mark is not changed after this (#deliver reports a sent message's arrival as a PacketUpdate).
    if (direction === 'out') this.#ctx.mark({ transport: this, message, mark, delivered: true });
  }

  /** The facts a packet's fault event names, built only when there is an event. */
  #facts(mark: NetMark, info: MessageInfo): PacketFacts {
    return { direction: mark.direction, packet: mark.packet, link: this.link, ...pick(info) };
  }

  #enqueue(item: InFlight): void {
    this.#queue.push(item);
    this.#arm();
  }

  #arm(): void {
    const head = this.#queue.peek();
    if (!head || this.#closed) return;
    if (this.#timerAt !== undefined && this.#timerAt <= head.deliverAt) return;
    this.#disarm();
    const { scheduler } = this.#ctx;
    this.#timerAt = head.deliverAt;
    const wait = Math.max(0, head.deliverAt - scheduler.now());
    if (wait === 0 && scheduler.soon) {
      // A clean link delays nothing: deliver after the sender's synchronous work, not after a timer.
      const token = Symbol('soon');
      this.#timer = token;
      this.#timerIsSoon = true;
      scheduler.soon(() => {
        if (this.#timer === token) this.#flush();
      });
      return;
    }
    this.#timerIsSoon = false;
    this.#timer = scheduler.setTimeout(() => this.#flush(), wait);
  }

  /** Cancels the pending flush, if any (a `soon` one is only forgotten: its token no longer matches). */
  #disarm(): void {
    if (this.#timer !== undefined && !this.#timerIsSoon)
      this.#ctx.scheduler.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = undefined;
  }

  #flush(): void {
    this.#timer = undefined;
    this.#timerAt = undefined;
    while (!this.#closed) {
      const head = this.#queue.peek();
      if (!head || head.deliverAt > this.#ctx.scheduler.now()) break;
      this.#queue.shift();
      this.#deliver(head);
    }
    this.#arm();
  }

  #deliver(item: InFlight): void {
    const { scheduler, log } = this.#ctx;
    const now = scheduler.now();
    const { order } = item;
    const { direction } = item.mark;
    let reordered = false;
    if (item.copy === 1) {
      const inFlight = this.#inFlight[direction];
      if (inFlight.delete(order) && item.mark.heldMs) this.#held[direction]--;
      // Overtook an earlier message still in flight, or was overtaken by a later one.
      const earliest = this.#earliestInFlight(direction);
      reordered =
        (earliest !== undefined && earliest < order) || this.#maxDelivered[direction] > order;
      this.#maxDelivered[direction] = Math.max(this.#maxDelivered[direction], order);
      if (this.#held[direction] > 0) this.#releaseHeld(direction, order, now);
      if (reordered)
        log.add(now, {
          kind: 'packet.reordered',
          ...this.#facts(item.mark, item.info),
          ...(item.mark.heldMs ? { heldMs: item.mark.heldMs } : {}),
        });
    }
    const rule = item.copy === 1 ? this.#ctx.takeRule(direction, item.info) : undefined;
    if (rule)
      log.add(now, {
        kind: 'rule.fired',
        ruleId: rule.id,
        rule: rule.label,
        packet: item.mark.packet,
        ...(item.info.taskId ? { taskId: item.info.taskId } : {}),
      });
    if (rule?.then.kind === 'lose') {
      this.#lose(item, 'rule', now, rule.label);
      return;
    }
    if (direction === 'out') {
      // A closed inner link has closed this one (onclose), so it is open here; a failed send is its error.
      this.#inner.send(item.message).catch(this.#sendFailed);
      if (item.copy === 1) {
        const update: PacketUpdate = { packet: item.mark.packet, at: now, deliveredAt: now };
        if (reordered) update.reordered = reordered;
        if (rule) update.rule = rule.label;
        this.#ctx.packetUpdate(update);
      }
    } else {
      let mark: NetMark;
      if (item.copy === 1) {
        // Nobody has seen a received message's mark yet (#enter reported none): it is completed here.
        mark = item.mark;
        mark.deliveredAt = now;
        if (reordered) mark.reordered = reordered;
        if (rule) mark.rule = rule.label;
      } else {
        mark = { ...item.mark, deliveredAt: now };
        delete mark.duplicated;
        delete mark.heldMs;
        mark.duplicate = true;
      }
      this.#ctx.mark({ transport: this, message: item.message, mark, delivered: true });
      this.onmessage?.(item.message);
    }
    if (rule) this.#ctx.runRule(rule);
  }

  /**
   * The earliest send order still in flight, found without an iterator (two
   * objects per message, where this is the per-message path): orders enter
   * rising and never come back, so none below the last one found can be in
   * flight, and counting up from it is O(1) per message over a link's life.
   */
  #earliestInFlight(direction: LinkDirection): number | undefined {
    const inFlight = this.#inFlight[direction];
    if (inFlight.size === 0) return undefined;
    let order = this.#lowest[direction];
    while (!inFlight.has(order)) order++;
    this.#lowest[direction] = order;
    return order;
  }

  readonly #sendFailed = (error: unknown): void =>
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));

  /** A held message goes right after the first later one in its direction, so it really is overtaken. */
  #releaseHeld(direction: LinkDirection, order: number, now: number): void {
    let released = false;
    this.#queue.forEach((other) => {
      if (
        other.mark.direction === direction &&
        other.copy === 1 &&
        other.mark.heldMs &&
        other.order < order &&
        other.deliverAt > now
      ) {
        other.deliverAt = now;
        released = true;
      }
    });
    if (released) this.#queue.resort();
  }

  #lose(item: InFlight, reason: LossReason, now: number, rule?: string): void {
    const { direction } = item.mark;
    // A rule's loss comes after #deliver took it out of flight: it is counted out once.
    if (item.copy === 1 && this.#inFlight[direction].delete(item.order) && item.mark.heldMs)
      this.#held[direction]--;
    if (item.copy === 2) return; // The extra copy's loss changes nothing anyone could see.
    this.#ctx.log.add(now, { kind: 'packet.lost', reason, ...this.#facts(item.mark, item.info) });
    if (direction === 'out')
      this.#ctx.packetUpdate({
        packet: item.mark.packet,
        at: now,
        lost: reason,
        ...(rule ? { rule } : {}),
      });
    else
      this.#ctx.mark({
        transport: this,
        message: item.message,
        mark: { ...item.mark, lost: reason, ...(rule ? { rule } : {}) },
        delivered: false,
      });
  }

  #shut(reason: string, closeInner: boolean): void {
    if (this.#closed) return;
    const now = this.#ctx.scheduler.now();
    const inFlight = this.#queue.drain().filter((item) => item.copy === 1);
    for (const item of inFlight) this.#lose(item, 'link-dropped', now);
    this.#closed = true;
    this.#disarm();
    this.#ctx.log.add(now, {
      kind: 'link.dropped',
      link: this.link,
      reason,
      inFlight: inFlight.length,
    });
    if (closeInner) {
      this.#inner.onclose = undefined;
      this.#inner.close(reason);
    }
    this.#ctx.closed(this);
    this.onclose?.(reason);
  }
}

function pick(info: MessageInfo): { method?: string; taskId?: string } {
  return {
    ...(info.method ? { method: info.method } : {}),
    ...(info.taskId ? { taskId: info.taskId } : {}),
  };
}
