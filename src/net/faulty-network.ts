/**
 * The simulated network between the page's client and the server: every
 * link the client opens passes through it. It holds the link conditions and
 * the seeded PRNG, the armed fault rules and the fault log, and the big
 * faults: drop the connection, go offline for a while (connect attempts
 * fail until then), kill or restart the server.
 */
import { FaultLog } from './fault-log.ts';
import { RuleBook, type FaultRule } from './fault-rules.ts';
import { FaultyTransport, type LinkContext } from './faulty-transport.ts';
import {
  clampConditions,
  cleanLink,
  type DirectionConditions,
  type LinkConditions,
  type LinkDirection,
} from './link-conditions.ts';
import { normalizeSeed, Prng } from './prng.ts';
import { realScheduler, type Scheduler } from './scheduler.ts';
import type { MessageInfo } from './message-info.ts';
import type { MarkEvent, MarkSource, PacketUpdate } from './net-marks.ts';
import type { Connector, Transport } from './transport.ts';
import { errorMessage } from '../protocol/error-message.ts';

/** What the network needs from the thing that runs the server (ServerWorker fits). */
export interface ServerControl {
  readonly running: boolean;
  readonly generation: number;
  kill(reason?: string): void;
  restart(): void;
}

/** A message entering the network: which way, and what the network can tell about it. */
export interface EnteringMessage {
  direction: LinkDirection;
  info: MessageInfo;
}

export interface FaultyNetworkOptions {
  scheduler?: Scheduler;
  seed?: number;
  conditions?: LinkConditions;
  server?: ServerControl;
}

export class FaultyNetwork implements MarkSource {
  readonly log = new FaultLog();
  readonly rules = new RuleBook();
  readonly scheduler: Scheduler;
  readonly #server: ServerControl | undefined;
  readonly #links = new Set<FaultyTransport>();
  readonly #updateListeners = new Set<(update: PacketUpdate) => void>();
  readonly #markListeners = new Set<(event: MarkEvent) => void>();
  readonly #ruleListeners = new Set<() => void>();
  readonly #enterListeners = new Set<(entry: EnteringMessage) => void>();
  #conditions: LinkConditions;
  #prng: Prng;
  #nextLink = 1;
  #nextPacket = 1;
  #offlineUntil: number | undefined;
  #offlineTimer: unknown;
  readonly #ctx: LinkContext;

  constructor(options: FaultyNetworkOptions = {}) {
    this.scheduler = options.scheduler ?? realScheduler;
    this.#server = options.server;
    this.#conditions = options.conditions
      ? { out: clampConditions(options.conditions.out), in: clampConditions(options.conditions.in) }
      : cleanLink();
    this.#prng = new Prng(options.seed ?? 1);
    this.#ctx = {
      scheduler: this.scheduler,
      log: this.log,
      conditions: (direction) => this.#conditions[direction],
      prng: () => this.#prng,
      nextPacket: () => this.#nextPacket++,
      packetUpdate: (update) => {
        for (const listener of this.#updateListeners) listener(update);
      },
      mark: (event) => {
        for (const listener of this.#markListeners) listener(event);
      },
      takeRule: (direction, info) => {
        const rule = this.rules.take(direction, info);
        if (rule) this.#rulesChanged();
        return rule;
      },
      entered: (direction, info) => {
        if (this.#enterListeners.size === 0) return;
        const entry: EnteringMessage = { direction, info };
        for (const listener of this.#enterListeners) listener(entry);
      },
      runRule: (rule) => this.#run(rule),
      closed: (link) => this.#links.delete(link),
    };
  }

  get conditions(): LinkConditions {
    return this.#conditions;
  }

  /** Changes one direction's conditions; messages already in flight keep their fate. */
  setConditions(direction: LinkDirection, conditions: DirectionConditions): void {
    this.#conditions = { ...this.#conditions, [direction]: clampConditions(conditions) };
    this.log.add(this.scheduler.now(), {
      kind: 'conditions.changed',
      conditions: this.#conditions,
      seed: this.seed,
    });
  }

  get seed(): number {
    return this.#prng.seed;
  }

  /** Starts the random sequence over from `seed`: the same seed and settings replay the same fates. */
  reseed(seed: number): void {
    this.#prng = new Prng(normalizeSeed(seed));
    this.log.add(this.scheduler.now(), {
      kind: 'conditions.changed',
      conditions: this.#conditions,
      seed: this.seed,
    });
  }

  /** Links open now. */
  get openLinks(): number {
    return this.#links.size;
  }

  /** When the network comes back, while it is offline. */
  get offlineUntil(): number | undefined {
    return this.#offlineUntil;
  }

  get offline(): boolean {
    return this.#offlineUntil !== undefined;
  }

  /** Wraps a connector so every link it opens passes through this network. */
  connector(inner: Connector): Connector {
    return async () => {
      this.#refuseIfOffline();
      let transport: Transport;
      try {
        transport = await inner();
      } catch (error) {
        this.log.add(this.scheduler.now(), {
          kind: 'connect.refused',
          reason: errorMessage(error),
        });
        throw error;
      }
      if (this.offline) transport.close('network offline');
      this.#refuseIfOffline();
      const link = new FaultyTransport(transport, this.#nextLink++, this.#ctx);
      this.#links.add(link);
      this.log.add(this.scheduler.now(), { kind: 'link.opened', link: link.link });
      return link;
    };
  }

  /** Sees every later fact about messages the page sent (arrived, lost in flight). */
  onPacketUpdate(listener: (update: PacketUpdate) => void): () => void {
    this.#updateListeners.add(listener);
    return () => this.#updateListeners.delete(listener);
  }

  /**
   * Sees what the network did to each message, as it happens: a sent one as
   * it enters (before its sender logs it), a received one just before its
   * link hands it over, or when it was lost on the way in.
   */
  onMark(listener: (event: MarkEvent) => void): () => void {
    this.#markListeners.add(listener);
    return () => this.#markListeners.delete(listener);
  }

  /**
   * Sees every message as it enters the network, either way, before its fate is drawn and
   * before it is delivered (breakpoints pause the world here, with the message in flight).
   */
  onEnter(listener: (entry: EnteringMessage) => void): () => void {
    this.#enterListeners.add(listener);
    return () => this.#enterListeners.delete(listener);
  }

  /** Called when the armed rules change (armed, fired, removed). */
  onRulesChanged(listener: () => void): () => void {
    this.#ruleListeners.add(listener);
    return () => this.#ruleListeners.delete(listener);
  }

  arm(...args: Parameters<RuleBook['arm']>): FaultRule {
    const rule = this.rules.arm(...args);
    this.#rulesChanged();
    return rule;
  }

  disarm(id: string): void {
    this.rules.disarm(id);
    this.#rulesChanged();
  }

  /** Disarms every rule and forgets those that fired: a new run starts (a scenario's reset). */
  clearRules(): void {
    this.rules.clear();
    this.#rulesChanged();
  }

  /** Breaks every open link now; requests in flight are lost (the client re-issues them, C8). */
  dropConnection(reason = 'connection dropped'): void {
    for (const link of [...this.#links]) link.close(reason);
  }

  /** Breaks every link and refuses new ones for `seconds`. */
  goOffline(seconds: number): void {
    const ms = Math.max(0, seconds) * 1000;
    const now = this.scheduler.now();
    this.#offlineUntil = now + ms;
    if (this.#offlineTimer !== undefined) this.scheduler.clearTimeout(this.#offlineTimer);
    this.#offlineTimer = this.scheduler.setTimeout(() => this.goOnline(), ms);
    this.log.add(now, { kind: 'network.offline', untilAt: this.#offlineUntil });
    this.dropConnection('network went offline');
  }

  goOnline(): void {
    if (this.#offlineTimer !== undefined) this.scheduler.clearTimeout(this.#offlineTimer);
    this.#offlineTimer = undefined;
    if (this.#offlineUntil === undefined) return;
    this.#offlineUntil = undefined;
    this.log.add(this.scheduler.now(), { kind: 'network.online' });
  }

  /** Kills the server: every link breaks; an in-memory server forgets its tasks. */
  killServer(reason = 'server worker killed'): void {
    if (!this.#server?.running) return;
    const generation = this.#server.generation;
    this.#server.kill(reason);
    this.log.add(this.scheduler.now(), { kind: 'server.killed', generation });
  }

  /** Kills the server if it runs, and starts a fresh one with empty memory. */
  restartServer(): void {
    if (!this.#server) return;
    const wasRunning = this.#server.running;
    const generation = this.#server.generation;
    this.#server.restart();
    if (wasRunning) this.log.add(this.scheduler.now(), { kind: 'server.killed', generation });
    this.log.add(this.scheduler.now(), {
      kind: 'server.started',
      generation: this.#server.generation,
    });
  }

  #refuseIfOffline(): void {
    if (this.#offlineUntil === undefined) return;
    const left = Math.max(0, this.#offlineUntil - this.scheduler.now());
    this.log.add(this.scheduler.now(), {
      kind: 'connect.refused',
      reason: `network offline (${(left / 1000).toFixed(1)} s left)`,
    });
    throw new Error('network offline');
  }

  #run(rule: FaultRule): void {
    switch (rule.then.kind) {
      case 'drop':
        this.dropConnection(`rule: ${rule.label}`);
        return;
      case 'offline':
        this.goOffline(rule.then.seconds);
        return;
      case 'kill':
        this.killServer(`rule: ${rule.label}`);
        return;
      case 'restart':
        this.restartServer();
        return;
      case 'lose':
        return; // The link already lost the message.
    }
  }

  #rulesChanged(): void {
    for (const listener of this.#ruleListeners) listener();
  }
}
