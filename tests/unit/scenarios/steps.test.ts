/**
 * The shared step builders (src/scenarios/steps.ts) judge what they claim:
 * each against an observation edited as if messages had arrived.
 */
import { describe, expect, it } from 'vitest';
import {
  answeredNotFound,
  checkpointSaved,
  faultSeen,
  killSurvived,
  neverNotFound,
  predictOutcome,
} from '../../../src/scenarios/steps.ts';
import { FakeStage } from './fake-stage.ts';

const notFound = { error: { code: -32602, message: 'unknown task' } };

describe('shared step builders', () => {
  it('T12: a checkpoint counts only while at least one second of the job is left', () => {
    const stage = new FakeStage(() => 0);
    const wait = checkpointSaved('slow_compute', 4);
    stage.setTask({ taskId: 't1', statusMessage: 'computing: 0 of 4 s' });
    expect(wait.holds(stage.obs)).toBe(false);
    stage.setTask({ taskId: 't1', statusMessage: 'computing: 2 of 4 s' });
    expect(wait.holds(stage.obs)).toBe(true);
    stage.setTask({ taskId: 't1', statusMessage: 'computing: 3 of 4 s' });
    expect(wait.holds(stage.obs)).toBe(false);
  });

  it('T13: -32602 for the task is seen only from a server the test accepts, and never-lost turns red on it', () => {
    const stage = new FakeStage(() => 0);
    stage.setTask({ taskId: 't1' });
    const fromNode2 = answeredNotFound(
      'lost',
      'node 2 lost it',
      'slow_compute',
      (r) => r.node === 2,
    );
    const never = neverNotFound('the store keeps it');
    expect(never.kind).toBe('throughout');
    expect(never.check(stage.obs).pass).toBe(true);
    stage.addRow({
      method: 'tasks/get',
      kind: 'error',
      taskId: 'other',
      node: 2,
      message: notFound,
    });
    expect(fromNode2.check(stage.obs).pass).toBe(false);
    stage.addRow({ method: 'tasks/get', kind: 'error', taskId: 't1', node: 1, message: notFound });
    expect(fromNode2.check(stage.obs).pass).toBe(false);
    stage.addRow({ method: 'tasks/get', kind: 'error', taskId: 't1', node: 2, message: notFound });
    expect(fromNode2.check(stage.obs).pass).toBe(true);
    expect(never.check(stage.obs)).toMatchObject({ pass: false });
  });

  it("T8: a kill step that must survive: its outcome question, its completed and never-lost checks, and the fault's family in its saw", () => {
    const stage = new FakeStage(() => 0);
    const step = killSurvived({
      title: 'Kill it',
      narration: 'It dies.',
      toolName: 'slow_compute',
      kill: (s) => s.killServer(),
      because: 'the store keeps it',
    });
    expect(step.expect?.map((e) => e.id)).toEqual(['completed', 'never-lost']);
    stage.setTask({ taskId: 't1', final: 'gone' });
    expect(step.predict?.actual(stage.obs)).toBe('gone (-32602)');
    expect(step.until?.holds(stage.obs)).toBe(true);
    expect(predictOutcome('slow_compute', ['completed']).actual(stage.obs)).toBe('gone (-32602)');
    const started = faultSeen('restarted', 'a fresh worker', 'server.started');
    expect(started.check(stage.obs)).toEqual({ pass: false, saw: 'no server events' });
    stage.obs = { ...stage.obs, faults: [{ kind: 'server.killed', generation: 1, seq: 1, at: 0 }] };
    expect(started.check(stage.obs)).toEqual({ pass: false, saw: 'server killed' });
  });
});
