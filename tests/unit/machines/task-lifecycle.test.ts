/**
 * The protocol's task lifecycle machine (src/machines/task-lifecycle.ts):
 * exactly the five statuses, every legal move and no illegal one, and a
 * chart drawn from the definition itself.
 */
import { describe, expect, it } from 'vitest';
import { initialTransition, setup } from 'xstate';
import { machineGraph } from '../../../src/machines/machine-graph.ts';
import {
  statusAfter,
  taskLifecycleMachine,
  TASK_LIFECYCLE_DELETION,
  type LifecycleEvent,
  type LifecycleEventType,
} from '../../../src/machines/task-lifecycle.ts';
import { TASK_STATUSES, TERMINAL_STATUSES, type TaskStatus } from '../../../src/protocol/task.ts';

const EVENTS: readonly LifecycleEventType[] = [
  'job.askedForInput',
  'input.allAnswered',
  'job.returnedResult',
  'job.raisedProtocolError',
  'job.honouredCancel',
  'ttl.passed',
];
const after = (status: TaskStatus, type: LifecycleEventType) =>
  statusAfter(status, { type } as LifecycleEvent);

/** The digest's T9, T11, T13, T15 and T17 as a table: where each cause takes each live status. */
const LEGAL: Record<
  'working' | 'input_required',
  Partial<Record<LifecycleEventType, TaskStatus>>
> = {
  working: {
    'job.askedForInput': 'input_required',
    'job.returnedResult': 'completed',
    'job.raisedProtocolError': 'failed',
    'job.honouredCancel': 'cancelled',
    'ttl.passed': 'failed',
  },
  input_required: {
    'job.askedForInput': 'input_required',
    'input.allAnswered': 'working',
    'job.returnedResult': 'completed',
    'job.raisedProtocolError': 'failed',
    'job.honouredCancel': 'cancelled',
    'ttl.passed': 'failed',
  },
};

describe('task lifecycle machine', () => {
  it('T6: its states are exactly the five statuses, the last three final', () => {
    const graph = machineGraph(taskLifecycleMachine);
    const states = graph.nodes.filter((n) => n.parent === graph.rootId);
    expect(states.map((n) => n.key)).toEqual([...TASK_STATUSES]);
    expect(states.filter((n) => n.kind === 'final').map((n) => n.key)).toEqual([
      ...TERMINAL_STATUSES,
    ]);
    expect(graph.nodes).toHaveLength(1 + 5);
    expect(initialTransition(taskLifecycleMachine)[0].value).toBe('working');
  });

  it('T9: working and input_required alternate any number of times, each way named for its cause', () => {
    let status: TaskStatus = 'working';
    for (let round = 0; round < 3; round++) {
      status = after(status, 'job.askedForInput')!;
      expect(status).toBe('input_required');
      status = after(status, 'input.allAnswered')!;
      expect(status).toBe('working');
    }
    // T15: answers move a task only from input_required; a working task has nothing to answer.
    expect(after('working', 'input.allAnswered')).toBeUndefined();
  });

  it('T9, T11, T13, T17: every cause takes each live status exactly where the rules say, and nowhere else', () => {
    for (const status of ['working', 'input_required'] as const)
      for (const type of EVENTS)
        expect(after(status, type), `${status} on ${type}`).toBe(LEGAL[status][type]);
  });

  it('T9: nothing leaves completed, failed or cancelled', () => {
    for (const status of TERMINAL_STATUSES)
      for (const type of EVENTS)
        expect(after(status, type), `${status} on ${type}`).toBeUndefined();
  });

  it('T11: a returned result (isError: true included) leads only to completed; failed comes only from a JSON-RPC error or the TTL', () => {
    const graph = machineGraph(taskLifecycleMachine);
    const into = (key: string) =>
      new Set(graph.edges.filter((e) => e.target === `lifecycle.${key}`).map((e) => e.event));
    expect(into('completed')).toEqual(new Set(['job.returnedResult']));
    expect(into('failed')).toEqual(new Set(['job.raisedProtocolError', 'ttl.passed']));
  });

  it('T17: a cancel request moves nothing; only a cancel the job honours leads to cancelled', () => {
    const graph = machineGraph(taskLifecycleMachine);
    expect(Object.keys(graph.eventLabels).filter((e) => /cancel/i.test(e))).toEqual([
      'job.honouredCancel',
    ]);
    expect(
      new Set(graph.edges.filter((e) => e.target === 'lifecycle.cancelled').map((e) => e.event)),
    ).toEqual(new Set(['job.honouredCancel']));
  });

  it('T13: deletion is not a status: no state for it, the machine carries it as a note', () => {
    const keys = machineGraph(taskLifecycleMachine).nodes.map((n) => n.key);
    for (const conclusion of ['deleted', 'purged', 'expired', 'gone', 'unknown'])
      expect(keys).not.toContain(conclusion);
    expect(taskLifecycleMachine.root.meta).toEqual({ deletion: TASK_LIFECYCLE_DELETION });
    expect(TASK_LIFECYCLE_DELETION).toMatch(/-32602/);
  });

  it('T6: the graph is drawn from the definition: a state added to the machine appears with no other change', () => {
    const { config } = taskLifecycleMachine;
    const extended = setup({}).createMachine({
      ...config,
      states: {
        ...config.states,
        on_hold: { on: { resume: 'working' } },
      },
    } as never);
    const graph = machineGraph(extended);
    expect(graph.nodes.map((n) => n.key)).toContain('on_hold');
    expect(graph.edges.map((e) => `${e.source}>${e.target}`)).toContain(
      'lifecycle.on_hold>lifecycle.working',
    );
    expect(machineGraph(taskLifecycleMachine).nodes.map((n) => n.key)).not.toContain('on_hold');
  });
});
