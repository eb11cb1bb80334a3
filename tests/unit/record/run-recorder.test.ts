/**
 * The recorder on the real stack (the page session in front of the real
 * server, on a fake clock): a run with a dropped link and a cancel holds
 * the drop, the cancel, the tool call and its answer, the task's machine
 * steps and the armed rule, and survives export and import unchanged. The
 * recorder's memory is bounded and the file says what was dropped.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_LIMIT, RunRecorder } from '../../../src/record/run-recorder.ts';
import { parseRunFile, serializeRunFile } from '../../../src/record/run-file.ts';
import type { RunSetup } from '../../../src/record/run-setup.ts';
import { sampleSetup } from '../../../scripts/bench/sample-run.ts';
import { watchTaskSteps } from '../../../src/ui/state/run-steps.ts';
import type { RealStack } from '../helpers/real-stack.ts';
import { freshRealStackEachTest } from '../helpers/real-stack-each.ts';

const setup: RunSetup = sampleSetup({ seed: 7 });

describe('the run recorder (real stack, fake clock)', () => {
  let stack: RealStack;
  freshRealStackEachTest((fresh) => (stack = fresh));

  it('C8, T17: a run with a drop and a cancel holds both, the call and its answer, the steps and the rule', async () => {
    await stack.open();
    const session = stack.page.session;
    const recorder = new RunRecorder(session, {
      appVersion: '0.1.0',
      setup,
      watchSteps: watchTaskSteps,
    });
    session.network.arm('poll-answered', { kind: 'drop' });
    stack.call('slow_compute', { seconds: 5, pollIntervalMs: 500 }, true);
    await stack.advance(1500);
    const taskId = session.tasks[0]!.getSnapshot().context.taskId;
    session.cancel(taskId);
    await stack.advance(3000);

    const text = serializeRunFile(recorder.run());
    const verdict = parseRunFile(text);
    if (!verdict.ok) throw new Error(verdict.error);
    const { events } = verdict.run;
    const kinds = new Set(events.map((e) => e.kind));
    expect([...kinds]).toEqual(
      expect.arrayContaining([
        'wire',
        'tool-call',
        'tool-answer',
        'task-followed',
        'task-step',
        'fault',
        'fault-log',
        'rules',
        'connection',
        'packet',
      ]),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        kind: 'tool-call',
        call: 1,
        request: expect.objectContaining({ name: 'slow_compute', tasks: true }),
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        kind: 'tool-answer',
        call: 1,
        answer: { kind: 'task', task: expect.objectContaining({ taskId }) },
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'fault', notice: expect.objectContaining({ kind: 'drop' }) }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        kind: 'fault-log',
        event: expect.objectContaining({ kind: 'rule.fired' }),
      }),
    );
    const sent = events.flatMap((e) =>
      e.kind === 'wire' && e.entry.direction === 'out' ? [e.entry.message] : [],
    );
    expect(sent).toContainEqual(expect.objectContaining({ method: 'tasks/cancel' }));
    const steps = events.flatMap((e) =>
      e.kind === 'task-step' && e.taskId === taskId ? [e.step] : [],
    );
    expect(steps[0]!.eventType).toBe('xstate.init');
    expect(steps.map((s) => s.cancelRequested)).toContain(true);
    // The rule was armed, then fired (disarmed).
    expect(
      events.filter((e) => e.kind === 'rules').map((e) => e.kind === 'rules' && e.rules.length),
    ).toEqual([1, 0]);
    // Times run from the first event, in order.
    expect(events[0]!.at).toBe(0);
    expect(events.map((e) => e.at)).toEqual(events.map((e) => e.at).toSorted((a, b) => a - b));
    recorder.stop();
  });

  it('keeps the newest events only, and the file says how many older ones were dropped', async () => {
    await stack.open();
    const session = stack.page.session;
    const recorder = new RunRecorder(session, { appVersion: '0.1.0', setup, limit: 20 });
    for (let i = 0; i < 15; i++) session.declareTasks = i % 2 === 0;
    expect(recorder.size).toBe(15);
    for (let i = 0; i < 15; i++) session.declareTasks = i % 2 === 0;
    expect(recorder.size).toBeLessThanOrEqual(20);
    expect(recorder.dropped + recorder.size).toBe(30);
    const run = recorder.run();
    expect(run.events[0]).toEqual({ at: 0, kind: 'dropped', count: recorder.dropped });
    // What is kept is the newest events, in order.
    const toggled = [...Array(2)].flatMap(() => Array.from({ length: 15 }, (_, i) => i % 2 === 0));
    expect(run.events.slice(1).map((e) => e.kind === 'declare-tasks' && e.on)).toEqual(
      toggled.slice(-recorder.size),
    );
    expect(run.events).toHaveLength(recorder.size + 1);
    expect(DEFAULT_EVENT_LIMIT).toBe(100_000);
    recorder.stop();
  });
});
