/**
 * A setup in the page's address, so a link gives a colleague the same
 * faults in the same order: the seed, the link conditions, the armed rules,
 * the store, the cluster's shape and the extension switch.
 *
 *   ?seed=4242&out=80,10,0.1,0,0&in=0,0,0,0,0&rules=poll-answered:drop,completed:offline-5
 *   &store=indexeddb&nodes=3&policy=sticky&declare=1
 *
 * `out` and `in` are latencyMs, jitterMs, lossRate, duplicateRate,
 * reorderRate. A rule is a trigger id (`TRIGGERS`) and an action (`drop`,
 * `offline-<s>`, `kill`, `restart`, `lose`). Reading never throws: each bad
 * parameter is left out with a problem naming it, and the rest applies.
 */
import { TRIGGERS, type RuleAction, type TriggerId } from '../net/fault-rules.ts';
import type { DirectionConditions } from '../net/link-conditions.ts';
import { ROUTING_POLICIES, type RoutingPolicy } from '../session/cluster/routing-policy.ts';
import type { TaskStoreKind } from '../protocol/worker-control.ts';
import {
  ClusterShapeSchema,
  DirectionConditionsSchema,
  MAX_OFFLINE_SECONDS,
  MAX_SEED,
  RuleActionSchema,
  type RunFaultRule,
  type RunSetup,
} from './run-setup.ts';

/** An armed rule as an address can carry it: one of the page's triggers and an action. */
export interface SharedRule {
  trigger: TriggerId;
  then: RuleAction;
}

/** What an address can set; each field is absent when the address does not set it (or set it wrongly). */
export interface SharedSetup {
  seed?: number;
  out?: DirectionConditions;
  in?: DirectionConditions;
  rules?: SharedRule[];
  store?: TaskStoreKind;
  nodes?: number;
  policy?: RoutingPolicy;
  declareTasks?: boolean;
}

/** Every parameter this file reads, so a page can tell which parameters are a shared setup. */
export const SETUP_PARAMS = ['seed', 'out', 'in', 'rules', 'store', 'nodes', 'policy', 'declare'];

const CONDITION_KEYS = [
  'latencyMs',
  'jitterMs',
  'lossRate',
  'duplicateRate',
  'reorderRate',
] as const satisfies readonly (keyof DirectionConditions)[];

function actionText(action: RuleAction): string {
  return action.kind === 'offline' ? `offline-${action.seconds}` : action.kind;
}

/** The trigger a rule was armed from, if it was one of the page's (a scenario's own match is not). */
export function sharedRule(rule: Pick<RunFaultRule, 'when' | 'then'>): SharedRule | undefined {
  const same = (a: object, b: object) =>
    JSON.stringify(Object.entries(a).toSorted()) === JSON.stringify(Object.entries(b).toSorted());
  const trigger = TRIGGERS.find((t) => same(t.when, rule.when));
  return trigger ? { trigger: trigger.id, then: rule.then } : undefined;
}

/**
 * The address parameters of a setup (the server is never in them: a link
 * opens the colleague's own built-in server). Rules armed from no trigger of
 * the page cannot be written; they are returned in `unshared`.
 */
export function setupParams(setup: Omit<RunSetup, 'server'>): {
  params: URLSearchParams;
  unshared: RunFaultRule[];
} {
  const params = new URLSearchParams();
  params.set('seed', String(setup.seed));
  params.set('out', CONDITION_KEYS.map((k) => setup.link.out[k]).join(','));
  params.set('in', CONDITION_KEYS.map((k) => setup.link.in[k]).join(','));
  const unshared: RunFaultRule[] = [];
  const rules: string[] = [];
  for (const rule of setup.rules) {
    const shared = sharedRule(rule);
    if (shared) rules.push(`${shared.trigger}:${actionText(shared.then)}`);
    else unshared.push(rule);
  }
  if (rules.length > 0) params.set('rules', rules.join(','));
  params.set('store', setup.store);
  params.set('nodes', String(setup.cluster.nodes));
  params.set('policy', setup.cluster.policy);
  params.set('declare', setup.declareTasks ? '1' : '0');
  return { params, unshared };
}

/**
 * `href` with its `seed` set to `seed`, first among the parameters as Copy link writes it, the
 * others kept in their order: what a plain load writes, so a reload draws the same faults in the
 * same order and the address bar is always a shareable link. Nothing else is added.
 */
export function addressWithSeed(href: string, seed: number): string {
  const url = new URL(href);
  // The other parameters as written (a bare `&drill` stays bare), only `seed` replaced.
  const rest = url.search
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && new URLSearchParams(part).keys().next().value !== 'seed');
  url.search = [`seed=${seed}`, ...rest].join('&');
  return url.href;
}

function readConditions(raw: string): DirectionConditions | string {
  const parts = raw.split(',');
  if (parts.length !== CONDITION_KEYS.length)
    return `expected ${CONDITION_KEYS.length} numbers (${CONDITION_KEYS.join(', ')}), got ${parts.length}`;
  const value = Object.fromEntries(
    CONDITION_KEYS.map((key, i) => [key, parts[i]!.trim() === '' ? NaN : Number(parts[i])]),
  );
  const parsed = DirectionConditionsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  return `${String(issue.path[0])} ${issue.message.replace(/^Invalid input: /, '')}`;
}

function readAction(raw: string): RuleAction | undefined {
  const offline = /^offline-(\d+)$/.exec(raw);
  const candidate = offline ? { kind: 'offline', seconds: Number(offline[1]) } : { kind: raw };
  const parsed = RuleActionSchema.safeParse(candidate);
  return parsed.success ? parsed.data : undefined;
}

function readRules(raw: string, problems: string[]): SharedRule[] {
  const rules: SharedRule[] = [];
  for (const part of raw.split(',').filter((p) => p !== '')) {
    const [trigger, action, ...rest] = part.split(':');
    const known = TRIGGERS.find((t) => t.id === trigger);
    const then = action === undefined ? undefined : readAction(action);
    if (!known || !then || rest.length > 0) {
      problems.push(
        `rules: "${part}" left out: ${
          !known
            ? `unknown trigger "${trigger}" (known: ${TRIGGERS.map((t) => t.id).join(', ')})`
            : `unknown action "${action ?? ''}" (drop, offline-<1..${MAX_OFFLINE_SECONDS}>, kill, restart, lose)`
        }`,
      );
      continue;
    }
    rules.push({ trigger: known.id, then });
  }
  return rules;
}

/** Reads a shared setup from the address; `problems` name each parameter left out, and why. */
export function readSetupAddress(params: URLSearchParams): {
  setup: SharedSetup;
  problems: string[];
} {
  const setup: SharedSetup = {};
  const problems: string[] = [];
  const seed = params.get('seed');
  if (seed !== null) {
    const value = Number(seed);
    if (/^\d+$/.test(seed) && value <= MAX_SEED) setup.seed = value;
    else problems.push(`seed: "${seed}" is not a whole number from 0 to ${MAX_SEED}`);
  }
  for (const direction of ['out', 'in'] as const) {
    const raw = params.get(direction);
    if (raw === null) continue;
    const conditions = readConditions(raw);
    if (typeof conditions === 'string') problems.push(`${direction}: ${conditions}`);
    else setup[direction] = conditions;
  }
  const rules = params.get('rules');
  if (rules !== null) setup.rules = readRules(rules, problems);
  const store = params.get('store');
  if (store !== null) {
    if (store === 'memory' || store === 'indexeddb') setup.store = store;
    else problems.push(`store: "${store}" is not memory or indexeddb`);
  }
  const nodes = params.get('nodes');
  if (nodes !== null) {
    const parsed = ClusterShapeSchema.shape.nodes.safeParse(
      /^\d+$/.test(nodes) ? Number(nodes) : NaN,
    );
    if (parsed.success) setup.nodes = parsed.data;
    else problems.push(`nodes: "${nodes}" is not a node count from 1 to 5`);
  }
  const policy = params.get('policy');
  if (policy !== null) {
    const known = ROUTING_POLICIES.find((p) => p === policy);
    if (known) setup.policy = known;
    else problems.push(`policy: "${policy}" is not ${ROUTING_POLICIES.join(', ')}`);
  }
  const declare = params.get('declare');
  if (declare !== null) {
    if (declare === '1' || declare === '0') setup.declareTasks = declare === '1';
    else problems.push(`declare: "${declare}" is not 1 or 0`);
  }
  return { setup, problems };
}
