/**
 * The lifecycle chart is drawn from the machine the server runs: its graph
 * and its layout (the one drawing of cards, detail and first screen) come
 * from `taskLifecycleMachine`'s definition, so a state added there appears
 * in the chart with no other change. And what the chart says about the
 * client's view beside the x-ray.
 */
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { machineGraph } from '../../../src/machines/machine-graph.ts';
import { taskLifecycleMachine } from '../../../src/machines/task-lifecycle.ts';
import { TASK_STATUSES } from '../../../src/protocol/task.ts';
import { layoutLifecycle } from '../../../src/ui/statechart/lifecycle-diagram.ts';
import {
  compareViews,
  gapSentence,
  stepSentence,
  lifecycleDiagram,
  lifecycleGraph,
  lifecycleStateId,
  storedStatus,
} from '../../../src/ui/statechart/lifecycle-view.ts';

describe('the lifecycle chart', () => {
  it('is laid out once per form and shared: a card drawn lays nothing out', () => {
    for (const form of [
      { stacked: false, labels: false },
      { stacked: true, labels: true },
    ]) {
      const first = lifecycleDiagram(form);
      expect(lifecycleDiagram({ ...form })).toBe(first);
      expect(first).toEqual(layoutLifecycle(lifecycleGraph(), form));
    }
    expect(lifecycleDiagram({ stacked: false, labels: true })).not.toBe(
      lifecycleDiagram({ stacked: false, labels: false }),
    );
  });

  it('T6: draws exactly the five statuses, the three terminal ones as finals (T9)', () => {
    const graph = lifecycleGraph();
    const states = graph.nodes.filter((n) => n.parent === graph.rootId);
    expect(states.map((n) => n.key).sort()).toEqual([...TASK_STATUSES].sort());
    expect(
      states
        .filter((n) => n.kind === 'final')
        .map((n) => n.key)
        .sort(),
    ).toEqual(['cancelled', 'completed', 'failed']);
    for (const status of TASK_STATUSES) expect(lifecycleStateId(graph, status)).toBeDefined();
    const layout = layoutLifecycle(graph, { labels: false });
    expect(layout.boxes.map((b) => b.status).sort()).toEqual([...TASK_STATUSES].sort());
    // Drawn from the initial state on: working above input_required, both left of the finals.
    const box = (key: string) => layout.boxes.find((b) => b.status === key)!;
    expect(box('working').initial).toBe(true);
    expect(box('working').y).toBeLessThan(box('input_required').y);
    for (const final of ['completed', 'failed', 'cancelled'])
      expect(box('working').x).toBeLessThan(box(final).x);
  });

  it('T9: a state added to the machine appears in the chart with no other change', () => {
    // The machine's own definition, as plain data, with one more state and the moves in and out of it.
    const config = JSON.parse(JSON.stringify(taskLifecycleMachine.config)) as {
      states: Record<string, { on?: Record<string, string | object> }>;
    };
    config.states['working']!.on = { ...config.states['working']!.on, 'job.paused': 'paused' };
    config.states['paused'] = { on: { 'job.resumed': 'working' } };
    const grown = createMachine(config);
    const graph = machineGraph(grown);
    expect(graph.nodes.map((n) => n.key)).toContain('paused');
    expect(lifecycleStateId(graph, 'paused' as never)).toBe('lifecycle.paused');
    const layout = layoutLifecycle(graph);
    expect(layout.boxes.map((b) => b.status)).toContain('paused');
    expect(layout.arrows.flatMap((a) => a.events)).toEqual(
      expect.arrayContaining(['job.paused', 'job.resumed']),
    );
  });
});

describe('the client view beside the x-ray', () => {
  it('T12: they agree, or differ with the poll interval named, until the next tasks/get', () => {
    const agree = compareViews('working', { kind: 'stored', status: 'working', since: 1 });
    expect(agree).toEqual({ kind: 'agree', status: 'working' });
    expect(gapSentence(agree, { pollIntervalMs: 5000, following: true })).toBeUndefined();

    const behind = compareViews('working', { kind: 'stored', status: 'completed', since: 1 });
    expect(storedStatus(behind)).toBe('completed');
    expect(gapSentence(behind, { pollIntervalMs: 5000, following: true })).toMatch(
      /already says completed, the client last saw working.*up to 5000 ms late \(T12\)/,
    );
    expect(gapSentence(behind, { pollIntervalMs: 5000, following: false })).toMatch(
      /stopped asking/,
    );
  });

  it('T13: deletion is the task leaving the store, and with no x-ray nothing stale is shown', () => {
    const deleted = compareViews('failed', { kind: 'not-stored', deleted: true });
    expect(storedStatus(deleted)).toBeUndefined();
    expect(gapSentence(deleted, { pollIntervalMs: 500, following: false })).toMatch(
      /deleted after its TTL \(T13\).*not a status/,
    );
    const down = compareViews('working', { kind: 'no-xray', reason: 'server down' });
    expect(storedStatus(down)).toBeUndefined();
    expect(gapSentence(down, { pollIntervalMs: 500, following: true })).toMatch(
      /^No x-ray: the server is down/,
    );
  });

  it('T12: a past step says what the store held then, or that it is not known', () => {
    const facts = { pollIntervalMs: 2000 };
    expect(stepSentence(undefined, facts)).toMatch(/^At this step: .* is not known/);
    expect(
      stepSentence(compareViews('working', { kind: 'stored', status: 'working', since: 1 }), facts),
    ).toMatch(/held working too/);
    expect(
      stepSentence(
        compareViews('working', { kind: 'stored', status: 'completed', since: 1 }),
        facts,
      ),
    ).toMatch(/held completed, the client had seen working.*up to 2000 ms late \(T12\)/);
    expect(
      stepSentence(compareViews('failed', { kind: 'not-stored', deleted: true }), facts),
    ).toMatch(/^At this step: .*deleted after its TTL \(T13\)/);
  });
});
