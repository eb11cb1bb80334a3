/**
 * Run files saved while a poll was an invoked promise actor (`pollTask`)
 * name its answer `done pollTask` and the terminal `always` edges on
 * `task.active`. They must still replay: the replay reads their steps under
 * today's names (`poll.answered`, `poll.failed`, edges on `lifecycle`), so
 * the history's words and the chart's highlighted edges are today's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { machineGraph } from '../../../src/machines/machine-graph.ts';
import { taskMachine } from '../../../src/machines/task-machine.ts';
import type { RunTaskStep } from '../../../src/record/run-events.ts';
import { parseRunFile } from '../../../src/record/run-file.ts';
import { currentStep } from '../../../src/replay/renamed-steps.ts';
import { replayEvents } from '../../../src/replay/run-source.ts';
import { stepSeen } from '../../../src/ui/state/history-seen.ts';
import type { HistoryStep } from '../../../src/ui/state/task-history.ts';

const graph = machineGraph(taskMachine);
const edgeIds = new Set(
  [...graph.edges, ...graph.nodes.flatMap((n) => n.internal)].map((e) => e.id),
);

/** `public/runs/cancel-race.json` as it was recorded before the rename. */
const OLD_RUN = readFileSync(
  new URL('./runs/cancel-race-with-done-polltask.json', import.meta.url),
  'utf8',
);

function oldRun() {
  const verdict = parseRunFile(OLD_RUN);
  if (!verdict.ok) throw new Error(verdict.error);
  return verdict.run;
}

/** A recorded step as the history view holds it (optional facts present, maybe undefined). */
const asHistory = (s: RunTaskStep): HistoryStep => ({ ...s, lastError: s.lastError, link: s.link });

const step = (overrides: Partial<RunTaskStep>): RunTaskStep => ({
  index: 3,
  at: 1000,
  eventType: 'poll.answered',
  event: 'poll.answered',
  value: { active: { lifecycle: 'waiting', input: 'idle', cancel: 'idle', link: 'online' } },
  active: ['task.active.lifecycle.waiting'],
  entered: ['task.active.lifecycle.waiting'],
  taken: ['task.active.lifecycle.polling|poll.answered|task.active.lifecycle.waiting|'],
  internal: [],
  serverStatus: 'working',
  cancelRequested: false,
  polls: 1,
  pollIntervalMs: 1000,
  pendingInputs: 0,
  ...overrides,
});

describe('replaying steps recorded under the older event names', () => {
  it('T12, T9: a run file naming done pollTask replays as poll.answered, on edges the chart draws', () => {
    const run = oldRun();
    const recorded = run.events.flatMap((e) => (e.kind === 'task-step' ? [e.step] : []));
    // The fixture really is an old file: the test would pass vacuously otherwise.
    expect(recorded.map((s) => s.event)).toContain('done pollTask');
    expect(recorded.flatMap((s) => s.taken).some((id) => !edgeIds.has(id))).toBe(true);

    const steps = replayEvents(run).flatMap((e) => (e.kind === 'task-step' ? [e.step] : []));
    expect(steps.map((s) => s.event)).not.toContain('done pollTask');
    const answered = steps.filter((s) => s.event === 'poll.answered');
    expect(answered).toHaveLength(1);
    expect(answered[0]?.recorded).toMatchObject({ eventType: 'poll.answered', value: 'completed' });
    for (const s of steps)
      for (const id of [...s.recorded!.taken, ...s.recorded!.internal])
        expect(edgeIds, `${s.event}: ${id}`).toContain(id);
    // The answer that ended it takes today's edges: the answer, then `always` to completed.
    expect(
      answered[0]?.recorded?.taken.map((id) => graph.edges.find((e) => e.id === id)?.event),
    ).toEqual(['poll.answered', 'always']);
    // The history words it as a tasks/get answer, as it would a run recorded today.
    const previous = asHistory(steps[steps.indexOf(answered[0]!) - 1]!.recorded!);
    expect(stepSeen(asHistory(answered[0]!.recorded!), previous, graph).cause).toBe(
      'tasks/get answered completed',
    );
  });

  it('T13, C8: error pollTask reads as poll.failed, its edges to gone and backoff renamed', () => {
    const toBackoff = currentStep(
      step({
        eventType: 'xstate.error.actor.0.task.active.lifecycle.polling',
        event: 'error pollTask',
        taken: [
          'task.active.lifecycle.polling|xstate.error.actor.0.task.active.lifecycle.polling|task.active.lifecycle.backoff|',
        ],
      }),
    );
    expect(toBackoff).toMatchObject({ eventType: 'poll.failed', event: 'poll.failed' });
    expect(edgeIds).toContain(toBackoff.taken[0]);
    const gone = currentStep(
      step({
        eventType: 'xstate.error.actor.0.task.active.lifecycle.polling',
        event: 'error pollTask',
        taken: [
          'task.active.lifecycle.polling|xstate.error.actor.0.task.active.lifecycle.polling|task.gone|isGone',
        ],
      }),
    );
    expect(gone.taken).toEqual(['task.active.lifecycle.polling|poll.failed|task.gone|isGone']);
    expect(edgeIds).toContain(gone.taken[0]);
    // A pushed report that ended the task: only the terminal edge moved.
    const pushed = currentStep(
      step({
        eventType: 'task.notification',
        event: 'task.notification',
        taken: ['task.active||task.failed|statusIs(failed)'],
      }),
    );
    expect(pushed).toMatchObject({ event: 'task.notification', eventType: 'task.notification' });
    expect(pushed.taken).toEqual(['task.active.lifecycle||task.failed|statusIs(failed)']);
    expect(edgeIds).toContain(pushed.taken[0]);
  });

  it("leaves a step recorded under today's names as it is (the same object)", () => {
    const today = step({});
    expect(currentStep(today)).toBe(today);
    for (const id of today.taken) expect(edgeIds).toContain(id);
  });
});
