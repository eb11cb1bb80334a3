/**
 * The fault panel's state: the simulated network's conditions, seed, armed
 * rules and fault log, mirrored into runes, and the actions that break things.
 * Fault events are appended once per animation frame, like the wire log.
 */
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

export class NetworkControls {
  readonly #network: FaultyNetwork;
  #conditions = $state.raw<LinkConditions>(cleanLink());
  #seed = $state(0);
  #rules = $state.raw<readonly FaultRule[]>([]);
  #events = $state.raw<readonly FaultEvent[]>([]);
  #offlineUntil = $state<number | undefined>();
  #pending: FaultEvent[] = [];
  #frame: number | undefined;

  /** The "go offline for N s" field. */
  offlineSeconds = $state(5);
  /** The rule being put together: "when <trigger>, <action>". */
  trigger = $state<TriggerId>('create-task-result');
  action = $state<ActionKind>('drop');
  actionSeconds = $state(5);

  constructor(network: FaultyNetwork) {
    this.#network = network;
    this.#conditions = network.conditions;
    this.#seed = network.seed;
    this.#rules = network.rules.rules;
    this.#events = [...network.log.events];
    network.log.subscribe((event) => {
      if (event.kind === 'network.offline' || event.kind === 'network.online')
        this.#offlineUntil = network.offlineUntil;
      this.#pending.push(event);
      this.#frame ??= requestAnimationFrame(() => this.#flush());
    });
    network.onRulesChanged(() => (this.#rules = network.rules.rules));
  }

  get conditions(): LinkConditions {
    return this.#conditions;
  }

  /** Whether any direction changes anything. */
  get clean(): boolean {
    return isClean(this.#conditions.out) && isClean(this.#conditions.in);
  }

  /** A field as the panel shows it (rates in percent). */
  field(direction: LinkDirection, field: ConditionField): number {
    const conditions = this.#conditions[direction];
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
    this.#conditions = this.#network.conditions;
  }

  /** Back to a perfect link, both ways. */
  resetConditions(): void {
    const clean = cleanLink();
    this.#network.setConditions('out', clean.out);
    this.#network.setConditions('in', clean.in);
    this.#conditions = this.#network.conditions;
  }

  get seed(): number {
    return this.#seed;
  }

  /** Starts the random sequence over from `seed`, so a run can be repeated. */
  reseed(seed: number): void {
    this.#network.reseed(seed);
    this.#seed = this.#network.seed;
  }

  newSeed(): void {
    this.reseed(randomSeed());
  }

  get offlineUntil(): number | undefined {
    return this.#offlineUntil;
  }

  dropConnection(): void {
    this.#network.dropConnection('connection dropped by the learner');
  }

  goOffline(): void {
    this.#network.goOffline(this.offlineSeconds);
    this.#offlineUntil = this.#network.offlineUntil;
  }

  goOnline(): void {
    this.#network.goOnline();
    this.#offlineUntil = undefined;
  }

  killServer(): void {
    this.#network.killServer();
  }

  restartServer(): void {
    this.#network.restartServer();
  }

  /** No armed rules, a clean link both ways, online: where a scenario starts. */
  resetAll(): void {
    for (const rule of this.#network.rules.rules) this.#network.disarm(rule.id);
    this.resetConditions();
    this.goOnline();
  }

  /** Arms a rule from code (a scenario), not from the panel's fields. */
  armRule(trigger: TriggerId, then: RuleAction): FaultRule {
    return this.#network.arm(trigger, then);
  }

  /** Sets one direction's conditions from code (a scenario). */
  setConditions(direction: LinkDirection, conditions: DirectionConditions): void {
    this.#network.setConditions(direction, conditions);
    this.#conditions = this.#network.conditions;
  }

  get rules(): readonly FaultRule[] {
    return this.#rules;
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
    if (this.#pending.length === 0) return;
    this.#events = [...this.#network.log.events];
    this.#pending = [];
  }
}
