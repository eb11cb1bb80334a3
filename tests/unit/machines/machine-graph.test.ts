/**
 * The statechart on screen is drawn from `machineGraph(taskMachine)`, never
 * by hand (STYLE.md). These tests hold the graph to the machine: it must
 * list exactly the states and transitions the machine's own config declares,
 * so a change to the machine that the graph does not follow fails here.
 */
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import {
  activeLeafIds,
  activeStateIds,
  eventLabel,
  machineGraph,
  type GraphTransition,
} from '../../../src/machines/machine-graph.ts';
import { taskMachine } from '../../../src/machines/task-machine.ts';
import { TASK_STATUSES } from '../../../src/protocol/task.ts';

type Config = Record<string, unknown>;

const asArray = (value: unknown): unknown[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * An independent reading of the raw config (`taskMachine.config`), written
 * without XState's StateNode API: states by id, and every targeted
 * transition as `source | trigger | guard | target`.
 */
function readConfig(
  config: Config,
  id: string,
): { states: Map<string, string>; transitions: Set<string>; internal: Set<string> } {
  const states = new Map<string, string>();
  const transitions = new Set<string>();
  const internal = new Set<string>();

  const visit = (node: Config, nodeId: string, parentId: string | undefined): void => {
    const children = (node['states'] ?? {}) as Record<string, Config>;
    const kind =
      node['type'] === 'parallel' || node['type'] === 'final'
        ? String(node['type'])
        : Object.keys(children).length > 0
          ? 'compound'
          : 'atomic';
    states.set(nodeId, kind);
    const resolve = (target: string): string =>
      target.startsWith('#') ? target.slice(1) : `${parentId}.${target}`;
    const add = (trigger: string, spec: unknown): void => {
      for (const one of asArray(spec)) {
        const t = (typeof one === 'string' ? { target: one } : one) as Config;
        const guard = t['guard'];
        const guardName =
          guard === undefined
            ? ''
            : typeof guard === 'string'
              ? guard
              : String((guard as Config)['type']);
        const targets = asArray(t['target']) as string[];
        if (targets.length === 0) internal.add(`${nodeId} | ${trigger} | ${guardName}`);
        for (const target of targets)
          transitions.add(`${nodeId} | ${trigger} | ${guardName} | ${resolve(target)}`);
      }
    };
    for (const [event, spec] of Object.entries((node['on'] ?? {}) as Config)) add(event, spec);
    for (const [delay, spec] of Object.entries((node['after'] ?? {}) as Config))
      add(`after ${delay}`, spec);
    add('always', node['always']);
    for (const invoke of asArray(node['invoke']) as Config[]) {
      add(`done ${String(invoke['src'])}`, invoke['onDone']);
      add(`error ${String(invoke['src'])}`, invoke['onError']);
    }
    for (const [key, child] of Object.entries(children)) visit(child, `${nodeId}.${key}`, nodeId);
  };
  visit(config, id, undefined);
  return { states, transitions, internal };
}

const described = (t: GraphTransition): string =>
  `${t.source} | ${t.event} | ${t.guard?.replace(/\(.*\)$/, '') ?? ''}`;

describe('machineGraph(taskMachine)', () => {
  const graph = machineGraph(taskMachine);
  const oracle = readConfig(taskMachine.config as Config, taskMachine.id);
  const edge = (source: string, target: string, event: string): GraphTransition[] =>
    graph.edges.filter(
      (e) => e.source === `task.${source}` && e.target === `task.${target}` && e.event === event,
    );

  it('has exactly the states of the machine config, with their kinds', () => {
    expect(new Map(graph.nodes.map((n) => [n.id, n.kind]))).toEqual(oracle.states);
    expect(oracle.states.size).toBeGreaterThan(15);
  });

  it('has exactly the transitions of the machine config (event, guard, target)', () => {
    expect(new Set(graph.edges.map((e) => `${described(e)} | ${e.target}`))).toEqual(
      oracle.transitions,
    );
    const internal = graph.nodes.flatMap((n) => n.internal);
    expect(new Set(internal.map(described))).toEqual(oracle.internal);
  });

  it('finds the parallel regions and their initial states', () => {
    const active = graph.nodes.find((n) => n.id === 'task.active');
    expect(active?.kind).toBe('parallel');
    expect(active?.children).toEqual(
      expect.arrayContaining(['task.active.lifecycle', 'task.active.input', 'task.active.cancel']),
    );
    const regions = ((taskMachine.config.states as Config)['active'] as Config)['states'] as Record<
      string,
      Config
    >;
    expect(active?.children).toEqual(Object.keys(regions).map((key) => `task.active.${key}`));
    for (const [key, region] of Object.entries(regions)) {
      const node = graph.nodes.find((n) => n.id === `task.active.${key}`);
      expect(node?.region).toBe(true);
      expect(node?.initial).toBe(`task.active.${key}.${String(region['initial'])}`);
    }
    expect(graph.nodes.find((n) => n.id === 'task.active.lifecycle')?.initial).toBe(
      'task.active.lifecycle.waiting',
    );
    expect(graph.nodes.find((n) => n.id === 'task')?.initial).toBe('task.active');
  });

  it('T12: polling -> waiting on poll.answered, waiting -> polling after pollInterval', () => {
    const done = edge('active.lifecycle.polling', 'active.lifecycle.waiting', 'poll.answered');
    expect(done).toHaveLength(1);
    // A plain event sent back by the entry action, not the done event of an actor made per poll.
    expect(done[0]?.trigger).toBe('event');
    // One action per answer: the report, its failures cleared and the next poll, in one context update.
    expect(done[0]?.actions).toEqual(['applyReport']);

    const after = edge(
      'active.lifecycle.waiting',
      'active.lifecycle.polling',
      'after pollInterval',
    );
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ trigger: 'after', delay: 'pollInterval' });
    expect(after[0]?.guard).toBeUndefined();
    // Guards are tried in order: the TTL check comes first (T13).
    const expiry = edge('active.lifecycle.waiting', 'expired', 'after pollInterval')[0];
    expect(expiry?.guard).toBe('askedAfterTtl');
    expect(expiry!.order).toBeLessThan(after[0]!.order);
    const polling = graph.nodes.find((n) => n.id === 'task.active.lifecycle.polling');
    expect(polling?.entry).toEqual(['sendPoll']);
    expect(polling?.invokes).toEqual([]);
    expect(graph.nodes.find((n) => n.id === 'task.active.input.sending')?.invokes).toEqual([
      'sendUpdate',
    ]);
  });

  it('T13, T17: errors, cancel and the terminal statuses lead to final states', () => {
    expect(edge('active.lifecycle.polling', 'gone', 'poll.failed')[0]?.guard).toBe('isGone');
    expect(
      edge('active.lifecycle.polling', 'active.lifecycle.backoff', 'poll.failed')[0]?.guard,
    ).toBeUndefined();
    expect(edge('active.cancel.idle', 'active.cancel.sending', 'task.cancel')).toHaveLength(1);
    // What a reload carried over goes out on the event raised at start (T15, T17), not on an
    // eventless transition that xstate would try after every microstep of every poll.
    expect(edge('active.cancel.idle', 'active.cancel.sending', 'task.started')[0]?.guard).toBe(
      'cancelIntended',
    );
    expect(edge('active.input.idle', 'active.input.sending', 'task.started')[0]?.guard).toBe(
      'hasUnsent',
    );
    expect(graph.edges.filter((e) => e.trigger === 'always').map((e) => e.source)).toEqual(
      Array(3).fill('task.active.lifecycle'),
    );
    for (const status of ['completed', 'failed', 'cancelled']) {
      // On the region that takes the reports (T9, T18), so each is tried once per event.
      expect(edge('active.lifecycle', status, 'always')[0]?.guard).toBe(`statusIs(${status})`);
      expect(edge('active', status, 'always')).toEqual([]);
    }
    const finals = graph.nodes.filter((n) => n.kind === 'final').map((n) => n.key);
    expect(finals.sort()).toEqual([
      'cancelled',
      'completed',
      'expired',
      'failed',
      'forgotten',
      'gone',
    ]);
  });

  it("T6: the follower's finals are drawn as the client's conclusions, none reading like a status", () => {
    const labels = graph.nodes.filter((n) => n.kind === 'final').map((n) => n.label);
    expect(labels.sort()).toEqual([
      'gave up: TTL passed',
      'gave up: server answered -32602',
      'stopped following',
      'stopped: saw cancelled',
      'stopped: saw completed',
      'stopped: saw failed',
    ]);
    for (const label of labels) expect(TASK_STATUSES).not.toContain(label);
    // A state without meta.label is drawn by its key.
    expect(graph.nodes.find((n) => n.id === 'task.active.lifecycle.waiting')?.label).toBe(
      'waiting',
    );
  });

  it('keeps targetless transitions on their node, with their actions', () => {
    const lifecycle = graph.nodes.find((n) => n.id === 'task.active.lifecycle');
    expect(lifecycle?.internal).toMatchObject([
      { event: 'task.notification', target: null, actions: ['applyReport'] },
    ]);
    const reenter = edge(
      'active.lifecycle.waiting',
      'active.lifecycle.waiting',
      'task.notification',
    )[0];
    expect(reenter).toMatchObject({ guard: 'intervalChanges', reenter: true });
  });

  it('labels raw XState events for people', () => {
    expect(eventLabel(graph, 'xstate.done.actor.0.task.active.input.sending')).toBe(
      'done sendUpdate',
    );
    expect(eventLabel(graph, 'poll.answered')).toBe('poll.answered');
    expect(eventLabel(graph, 'xstate.after.pollInterval.task.active.lifecycle.waiting')).toBe(
      'after pollInterval',
    );
    expect(eventLabel(graph, 'xstate.init')).toBe('start');
    expect(eventLabel(graph, 'task.cancel')).toBe('task.cancel');
  });

  it('gives every edge a unique id', () => {
    expect(new Set(graph.edges.map((e) => e.id)).size).toBe(graph.edges.length);
  });
});

describe('active states', () => {
  const graph = machineGraph(taskMachine);

  it('lists one leaf per parallel region, or the final state', () => {
    const value = { active: { lifecycle: 'polling', input: 'idle', cancel: 'sending' } };
    expect(activeLeafIds(graph, value)).toEqual([
      'task.active.lifecycle.polling',
      'task.active.input.idle',
      'task.active.cancel.sending',
    ]);
    expect(activeStateIds('task', value)).toContain('task.active.cancel');
    expect(activeLeafIds(graph, 'completed')).toEqual(['task.completed']);
  });
});

describe('machineGraph on any machine', () => {
  it('reads numeric delays, multiple targets and inline guards', () => {
    const machine = createMachine({
      id: 'm',
      type: 'parallel',
      states: {
        a: {
          initial: 'x',
          states: {
            x: { after: { 250: 'y' } },
            y: { on: { go: { target: 'x', guard: () => true } } },
          },
        },
        b: {
          initial: 'p',
          states: { p: { on: { both: { target: ['#m.a.y', '#m.b.q'] } } }, q: { type: 'final' } },
        },
      },
    });
    const graph = machineGraph(machine);
    expect(graph.edges.find((e) => e.source === 'm.a.x')).toMatchObject({
      event: 'after 250ms',
      target: 'm.a.y',
      trigger: 'after',
    });
    expect(graph.edges.find((e) => e.source === 'm.a.y')?.guard).toBe('inline guard');
    expect(graph.edges.filter((e) => e.source === 'm.b.p').map((e) => e.target)).toEqual([
      'm.a.y',
      'm.b.q',
    ]);
    expect(graph.nodes.find((n) => n.id === 'm')?.kind).toBe('parallel');
  });
});
