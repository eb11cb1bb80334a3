/**
 * A machine's definition as a plain graph: every state node (nested,
 * parallel regions, finals), every transition with the event, guard and
 * delay that fire it. Read from the running definition (`machine.root`),
 * so the statechart drawn from it cannot drift from the code (STYLE.md).
 *
 * Pure: no DOM, no layout. The UI lays this graph out and draws it; tests
 * compare it with the machine's raw config and with the transitions a
 * running actor actually takes.
 */
import type { AnyStateNode, AnyTransitionDefinition, StateValue } from 'xstate';

export type GraphNodeKind = 'compound' | 'parallel' | 'atomic' | 'final' | 'history';

/** How a transition is triggered. */
export type TriggerKind = 'event' | 'after' | 'always' | 'done' | 'error';

/** One state node. `id` is XState's (`task.active.lifecycle.waiting`). */
export interface GraphNode {
  id: string;
  /** The key within its parent (`waiting`); the root's is the machine id. */
  key: string;
  /** What the chart writes in the box: the state's `meta.label` when it has one, else its key. */
  label: string;
  kind: GraphNodeKind;
  parent: string | null;
  /** Child ids in definition order. */
  children: string[];
  /** The initial child of a compound node. */
  initial: string | null;
  /** A region: a direct child of a parallel node. */
  region: boolean;
  /** Actors invoked while in this state (`sendUpdate`). */
  invokes: string[];
  /** Named actions run on entering this state (`sendPoll`: the tasks/get); inline assigns left out. */
  entry: string[];
  /** Transitions without a target: handled here, no state change (`task.notification / applyReport`). */
  internal: GraphTransition[];
}

/** A transition as drawn; one per target. */
export interface GraphTransition {
  /** Stable: source, event, targets, guard (see `transitionKey`). */
  id: string;
  source: string;
  /** The target state id; `null` for a targetless (internal) transition. */
  target: string | null;
  /** XState's event descriptor: `task.cancel`, `xstate.after.pollInterval.<state>`, `''` for always. */
  eventType: string;
  trigger: TriggerKind;
  /** What a learner reads: `task.cancel`, `after pollInterval`, `done sendUpdate`, `always`. */
  event: string;
  /** `ttlPassed`, `statusIs(completed)`; undefined when unguarded. */
  guard?: string;
  /** The delay's name or ms for `after`. */
  delay?: string;
  /** Named actions (`applyReport`), inline assigns as `assign`. */
  actions: string[];
  /** Re-entering its own state restarts its timers and invocations. */
  reenter: boolean;
  /** Position among the source's transitions: guards are tried in this order. */
  order: number;
}

export interface MachineGraph {
  /** The machine id, also the root node's id. */
  rootId: string;
  /** Every node, parents before children, in definition order. */
  nodes: GraphNode[];
  /** Transitions with a target. */
  edges: GraphTransition[];
  /** Raw event type -> learner's label, for every event type the machine handles. */
  eventLabels: Record<string, string>;
}

type Named = { type?: unknown; params?: unknown };

/** `statusIs(completed)` for a parameterised guard; a function guard by its name if it has one. */
function guardLabel(guard: unknown): string | undefined {
  if (guard === undefined) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function')
    return guard.name && guard.name !== 'guard' ? guard.name : 'inline guard';
  if (typeof guard === 'object' && guard !== null) {
    const { type, params } = guard as Named;
    const name = typeof type === 'string' ? type : 'guard';
    // Static params are part of the guard's meaning; params computed from the event are not known here.
    if (typeof params === 'object' && params !== null) {
      const values = Object.values(params).filter(
        (v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
      );
      if (values.length > 0) return `${name}(${values.join(', ')})`;
    }
    return name;
  }
  return 'guard';
}

function actionLabel(action: unknown): string | undefined {
  if (typeof action === 'string') return action;
  const type = (action as Named | null)?.type;
  if (typeof type !== 'string') return undefined;
  if (type === 'xstate.assign') return 'assign';
  return type.startsWith('xstate.') ? undefined : type;
}

function delayLabel(delay: unknown): string {
  if (typeof delay === 'number') return `${delay}ms`;
  if (typeof delay === 'string') return delay;
  return 'delay';
}

/** Which actor an `xstate.done.actor.<id>` / `xstate.error.actor.<id>` event names, by invoke id. */
function invokedSrc(node: AnyStateNode, invokeId: string): string {
  const found = node.invoke.find((inv) => inv.id === invokeId);
  const src: unknown = found?.src;
  return typeof src === 'string' ? src : invokeId;
}

function describeTrigger(t: AnyTransitionDefinition): {
  trigger: TriggerKind;
  event: string;
  delay?: string;
} {
  const eventType = String(t.eventType);
  if (eventType === '') return { trigger: 'always', event: 'always' };
  const delay = (t as { delay?: unknown }).delay;
  if (eventType.startsWith('xstate.after.')) {
    const label = delayLabel(delay ?? eventType.slice('xstate.after.'.length).split('.')[0]);
    return { trigger: 'after', event: `after ${label}`, delay: label };
  }
  for (const [prefix, trigger] of [
    ['xstate.done.actor.', 'done'],
    ['xstate.error.actor.', 'error'],
  ] as const) {
    if (eventType.startsWith(prefix))
      return {
        trigger,
        event: `${trigger} ${invokedSrc(t.source, eventType.slice(prefix.length))}`,
      };
  }
  if (eventType.startsWith('xstate.done.state.')) return { trigger: 'done', event: 'done' };
  return { trigger: 'event', event: eventType };
}

/**
 * A stable id for a transition definition: the same for the definition
 * read from `machine.root` and for the one a running actor reports in an
 * `@xstate.microstep` (a provided machine has its own node objects, so
 * identity cannot be used).
 */
export function transitionKey(
  t: Pick<AnyTransitionDefinition, 'source' | 'eventType' | 'target' | 'guard'>,
): string {
  const targets = (t.target ?? []).map((n) => n.id).join(',');
  return `${t.source.id}|${String(t.eventType)}|${targets}|${guardLabel(t.guard) ?? ''}`;
}

/** All transition definitions of a node: by event, delayed, eventless. */
function transitionsOf(node: AnyStateNode): AnyTransitionDefinition[] {
  // `after` transitions are also in `node.transitions` under their xstate.after.* event.
  const evented = [...node.transitions.values()].flat();
  return [...evented, ...(node.always ?? [])];
}

function labelOf(node: AnyStateNode): string {
  const label: unknown = (node.meta as { label?: unknown } | undefined)?.label;
  return typeof label === 'string' && label !== '' ? label : node.key;
}

function nodeKind(node: AnyStateNode): GraphNodeKind {
  return node.type;
}

/** The graph of a machine definition (pass `machine.root`, or the machine itself). */
export function machineGraph(machine: { root: AnyStateNode }): MachineGraph {
  const nodes: GraphNode[] = [];
  const edges: GraphTransition[] = [];
  const eventLabels: Record<string, string> = {};
  const seen = new Set<string>();

  const visit = (node: AnyStateNode, parent: AnyStateNode | undefined): void => {
    const children = Object.values(node.states) as AnyStateNode[];
    const initialTarget = node.type === 'compound' ? node.initial?.target?.[0] : undefined;
    const graphNode: GraphNode = {
      id: node.id,
      key: node.key,
      label: labelOf(node),
      kind: nodeKind(node),
      parent: parent?.id ?? null,
      children: children.map((c) => c.id),
      initial: initialTarget?.id ?? null,
      region: parent?.type === 'parallel',
      invokes: node.invoke.map((inv) => (typeof inv.src === 'string' ? inv.src : inv.id)),
      entry: node.entry
        .map(actionLabel)
        .filter((a): a is string => a !== undefined && a !== 'assign'),
      internal: [],
    };
    nodes.push(graphNode);

    transitionsOf(node).forEach((t, order) => {
      const { trigger, event, delay } = describeTrigger(t);
      eventLabels[String(t.eventType)] = event;
      const base = {
        source: node.id,
        eventType: String(t.eventType),
        trigger,
        event,
        ...(t.guard !== undefined ? { guard: guardLabel(t.guard) } : {}),
        ...(delay !== undefined ? { delay } : {}),
        actions: t.actions.map(actionLabel).filter((a): a is string => a !== undefined),
        reenter: t.reenter,
        order,
      };
      const key = transitionKey(t);
      const targets = t.target ?? [];
      if (targets.length === 0) {
        graphNode.internal.push({ ...base, id: key, target: null });
        return;
      }
      for (const target of targets) {
        // One drawn edge per target; a multi-target transition keeps one key per edge.
        let id = targets.length > 1 ? `${key}>${target.id}` : key;
        while (seen.has(id)) id += "'";
        seen.add(id);
        edges.push({ ...base, id, target: target.id });
      }
    });

    for (const child of children) visit(child, node);
  };

  visit(machine.root, undefined);
  return { rootId: machine.root.id, nodes, edges, eventLabels };
}

/**
 * The ids of every state node active in `value`, ancestors included:
 * `{active: {lifecycle: 'waiting'}}` -> `task`, `task.active`,
 * `task.active.lifecycle`, `task.active.lifecycle.waiting`.
 */
export function activeStateIds(rootId: string, value: StateValue): string[] {
  const ids: string[] = [rootId];
  const walk = (prefix: string, v: StateValue): void => {
    if (typeof v === 'string') {
      ids.push(`${prefix}.${v}`);
      return;
    }
    for (const [key, child] of Object.entries(v)) {
      ids.push(`${prefix}.${key}`);
      if (child !== undefined) walk(`${prefix}.${key}`, child);
    }
  };
  walk(rootId, value);
  return ids;
}

/** Only the deepest active states: one per parallel region, or the final state. */
export function activeLeafIds(graph: MachineGraph, value: StateValue): string[] {
  const active = new Set(activeStateIds(graph.rootId, value));
  return graph.nodes
    .filter((n) => active.has(n.id) && !n.children.some((c) => active.has(c)))
    .map((n) => n.id);
}

/** A learner's label for any event an actor processed (`xstate.init` -> `start`). */
export function eventLabel(graph: MachineGraph, eventType: string): string {
  if (eventType === 'xstate.init') return 'start';
  return graph.eventLabels[eventType] ?? eventType;
}
