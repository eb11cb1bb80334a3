/**
 * Faults scheduled on an event: "drop the connection right after the next
 * CreateTaskResult", "kill the server when a task is input_required". A rule
 * matches a message as it comes out of the network at the far end; the
 * action runs right after that message is delivered (or, for `lose`,
 * instead of delivering it). Each rule fires once.
 */
import { Method } from '../protocol/constants.ts';
import type { LinkDirection } from './link-conditions.ts';
import type { MessageInfo, MessageKind } from './message-info.ts';

/** Every given field must equal the message's. */
export interface MessageMatch {
  direction: LinkDirection;
  kind?: MessageKind;
  /** For a response, the method of the request it answers. */
  method?: string;
  resultType?: string;
  status?: string;
}

export type RuleAction =
  | { kind: 'drop' }
  | { kind: 'offline'; seconds: number }
  | { kind: 'kill' }
  | { kind: 'restart' }
  | { kind: 'lose' };

export type ActionKind = RuleAction['kind'];

export interface FaultRule {
  id: string;
  /** A sentence: "When the next CreateTaskResult arrives: drop the connection". */
  label: string;
  when: MessageMatch;
  then: RuleAction;
}

/** The events the page offers to schedule on. */
export const TRIGGERS = [
  {
    id: 'create-task-result',
    label: 'the next CreateTaskResult arrives',
    when: { direction: 'in', kind: 'result', resultType: 'task' },
  },
  {
    id: 'input-required',
    label: 'a task is reported input_required',
    when: { direction: 'in', status: 'input_required' },
  },
  {
    id: 'update-arrives',
    label: 'a tasks/update reaches the server',
    when: { direction: 'out', kind: 'request', method: Method.tasksUpdate },
  },
  {
    id: 'cancel-arrives',
    label: 'a tasks/cancel reaches the server',
    when: { direction: 'out', kind: 'request', method: Method.tasksCancel },
  },
  {
    id: 'poll-answered',
    label: 'a tasks/get result arrives',
    when: { direction: 'in', kind: 'result', method: Method.tasksGet },
  },
  {
    id: 'push-arrives',
    label: 'a notifications/tasks arrives',
    when: { direction: 'in', kind: 'notification', method: Method.notificationsTasks },
  },
  {
    id: 'completed',
    label: 'a task is reported completed',
    when: { direction: 'in', status: 'completed' },
  },
] as const satisfies readonly { id: string; label: string; when: MessageMatch }[];

export type TriggerId = (typeof TRIGGERS)[number]['id'];

export const ACTIONS: readonly { kind: ActionKind; label: string }[] = [
  { kind: 'drop', label: 'drop the connection' },
  { kind: 'offline', label: 'go offline for N s' },
  { kind: 'kill', label: 'kill the server (stays down)' },
  { kind: 'restart', label: 'kill the server, start a fresh one' },
  { kind: 'lose', label: 'lose that message' },
];

export function actionLabel(action: RuleAction): string {
  switch (action.kind) {
    case 'drop':
      return 'drop the connection';
    case 'offline':
      return `go offline for ${action.seconds} s`;
    case 'kill':
      return 'kill the server';
    case 'restart':
      return 'kill the server and start a fresh one';
    case 'lose':
      return 'lose that message';
  }
}

export function matchesMessage(
  match: MessageMatch,
  direction: LinkDirection,
  info: MessageInfo,
): boolean {
  return (
    match.direction === direction &&
    (match.kind === undefined || match.kind === info.kind) &&
    (match.method === undefined || match.method === info.method) &&
    (match.resultType === undefined || match.resultType === info.resultType) &&
    (match.status === undefined || match.status === info.status)
  );
}

/** The armed rules, first armed first matched. */
export class RuleBook {
  #rules: FaultRule[] = [];
  /** The rules that fired since the last `clear`, in the order they fired. */
  #fired: FaultRule[] = [];
  #nextId = 1;

  get rules(): readonly FaultRule[] {
    return this.#rules;
  }

  /** The rules that fired since the last `clear` (a rule fires once, then is no longer armed). */
  get fired(): readonly FaultRule[] {
    return this.#fired;
  }

  /**
   * Every rule armed since the last `clear` that fired or is armed still, in
   * the order armed: the rules of this run, for a link that replays it (a
   * link copied after a rule fired must still carry it). A rule disarmed
   * before it fired is none of them.
   */
  get ofThisRun(): readonly FaultRule[] {
    const order = (rule: FaultRule) => Number(rule.id.slice('rule-'.length));
    return [...this.#fired, ...this.#rules].sort((a, b) => order(a) - order(b));
  }

  /** Arms a rule from one of TRIGGERS, or from any match. */
  arm(trigger: TriggerId | { label: string; when: MessageMatch }, then: RuleAction): FaultRule {
    const event = typeof trigger === 'string' ? TRIGGERS.find((t) => t.id === trigger) : trigger;
    if (!event) throw new Error(`unknown trigger ${String(trigger)}`);
    const rule: FaultRule = {
      id: `rule-${this.#nextId++}`,
      label: `When ${event.label}: ${actionLabel(then)}`,
      when: event.when,
      then,
    };
    this.#rules = [...this.#rules, rule];
    return rule;
  }

  disarm(id: string): void {
    this.#rules = this.#rules.filter((rule) => rule.id !== id);
  }

  clear(): void {
    this.#rules = [];
    this.#fired = [];
  }

  /** The first rule this message fires, which is disarmed at once (rules fire once). */
  take(direction: LinkDirection, info: MessageInfo): FaultRule | undefined {
    const rule = this.#rules.find((r) => matchesMessage(r.when, direction, info));
    if (rule) {
      this.disarm(rule.id);
      this.#fired = [...this.#fired, rule];
    }
    return rule;
  }
}
