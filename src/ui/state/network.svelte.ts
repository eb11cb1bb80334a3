/**
 * The fault panel's state: a view of the page session's simulated network
 * (its conditions, seed, armed rules and fault log, read from the network
 * itself whenever it says they changed), the panel's own fields, and the
 * actions that break things. Fault events are drawn once per animation
 * frame, like the wire log.
 */
import { createSubscriber } from 'svelte/reactivity';
import { faultsForTask, type FaultEvent } from '../../net/fault-log.ts';
import {
  type ActionKind,
  type FaultRule,
  type RuleAction,
  type TriggerId,
} from '../../net/fault-rules.ts';
import type { FaultyNetwork } from '../../net/faulty-network.ts';
import {
  cleanLink,
  isClean,
  type DirectionConditions,
  type LinkConditions,
  type LinkDirection,
} from '../../net/link-conditions.ts';
import { randomSeed } from '../../net/prng.ts';

/** The panel's editable fields, in percent where people think in percent. */
export type ConditionField =
  'latencyMs' | 'jitterMs' | 'lossPercent' | 'duplicatePercent' | 'reorderPercent';

const RATE_FIELDS = {
  lossPercent: 'lossRate',
  duplicatePercent: 'duplicateRate',
  reorderPercent: 'reorderRate',
} as const;

/** The fault events after which the conditions, the seed or the offline spell may read differently. */
const LINK_EVENTS = new Set<FaultEvent['kind']>([
  'conditions.changed',
  'network.offline',
  'network.online',
]);

export class NetworkControls {
  readonly #network: FaultyNetwork;
  /** Re-runs readers when the conditions, the seed or the offline spell change. */
  readonly #watchLink: () => void;
  readonly #watchRules: () => void;
  /** The fault log as last drawn: a copy taken once per frame, so a burst of faults costs one render. */
  #events = $state.raw<readonly FaultEvent[]>([]);
  #pending = false;
  #frame: number | undefined;

  /** The "go offline for N s" field. */
  offlineSeconds = $state(5);
  /** The rule being put together: "when <trigger>, <action>". */
  trigger = $state<TriggerId>('create-task-result');
  action = $state<ActionKind>('drop');
  actionSeconds = $state(5);

  constructor(network: FaultyNetwork) {
    this.#network = network;
    this.#events = [...network.log.events];
    this.#watchLink = createSubscriber((update) =>
      network.log.subscribe((event) => {
        if (LINK_EVENTS.has(event.kind)) update();
      }),
    );
    this.#watchRules = createSubscriber((update) => network.onRulesChanged(update));
    network.log.subscribe(() => {
      this.#pending = true;
      this.#frame ??= requestAnimationFrame(() => this.#flush());
    });
  }

  get conditions(): LinkConditions {
    this.#watchLink();
    return this.#network.conditions;
  }

  /** Whether any direction changes anything. */
  get clean(): boolean {
    const conditions = this.conditions;
    return isClean(conditions.out) && isClean(conditions.in);
  }

  /** A field as the panel shows it (rates in percent). */
  field(direction: LinkDirection, field: ConditionField): number {
    const conditions = this.conditions[direction];
    if (field === 'latencyMs' || field === 'jitterMs') return conditions[field];
    return Math.round(conditions[RATE_FIELDS[field]] * 1000) / 10;
  }

  setField(direction: LinkDirection, field: ConditionField, value: number): void {
    const current = this.#network.conditions[direction];
    const next: DirectionConditions =
      field === 'latencyMs' || field === 'jitterMs'
        ? { ...current, [field]: value }
        : { ...current, [RATE_FIELDS[field]]: value / 100 };
    this.#network.setConditions(direction, next);
  }

  /** Back to a perfect link, both ways. */
  resetConditions(): void {
    const clean = cleanLink();
    this.#network.setConditions('out', clean.out);
    this.#network.setConditions('in', clean.in);
  }

  get seed(): number {
    this.#watchLink();
    return this.#network.seed;
  }

  /** Starts the random sequence over from `seed`, so a run can be repeated. */
  reseed(seed: number): void {
    this.#network.reseed(seed);
  }

  newSeed(): void {
    this.reseed(randomSeed());
  }

  get offlineUntil(): number | undefined {
    this.#watchLink();
    return this.#network.offlineUntil;
  }

  dropConnection(): void {
    this.#network.dropConnection('connection dropped by the learner');
  }

  goOffline(): void {
    this.#network.goOffline(this.offlineSeconds);
  }

  goOnline(): void {
    this.#network.goOnline();
  }

  killServer(): void {
    this.#network.killServer();
  }

  restartServer(): void {
    this.#network.restartServer();
  }

  get rules(): readonly FaultRule[] {
    this.#watchRules();
    return this.#network.rules.rules;
  }

  /** Arms the rule put together in the panel. */
  arm(): FaultRule {
    const then: RuleAction =
      this.action === 'offline'
        ? { kind: 'offline', seconds: this.actionSeconds }
        : { kind: this.action };
    return this.#network.arm(this.trigger, then);
  }

  disarm(id: string): void {
    this.#network.disarm(id);
  }

  /** Every fault so far, oldest first (bounded by the network's log). */
  get events(): readonly FaultEvent[] {
    return this.#events;
  }

  /** Every fault up to this moment, including those waiting for the next frame (see WireLog.rowsNow). */
  eventsNow(): readonly FaultEvent[] {
    this.#flush();
    return this.#events;
  }

  /** The faults that concern one task, for its timeline. */
  forTask(taskId: string): FaultEvent[] {
    return faultsForTask(this.#events, taskId);
  }

  clearEvents(): void {
    this.#flush();
    this.#network.log.clear();
    this.#events = [];
  }

  #flush(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    this.#frame = undefined;
    if (!this.#pending) return;
    this.#events = [...this.#network.log.events];
    this.#pending = false;
  }
}
