/** The scenario engine against a fake stage and a simulated clock: green, red, pause, step, restart, reload. */
import { describe, expect, it } from 'vitest';
import { expectThat, wireNever } from '../../../src/scenarios/expect.ts';
import { withPlantedFailure } from '../../../src/scenarios/planted.ts';
import { explain, readingDelayMs, SavedRunSchema } from '../../../src/scenarios/run-state.ts';
import type { RunOptions } from '../../../src/scenarios/run.ts';
import { defineScenario } from '../../../src/scenarios/scenario.ts';
import { taskFollowed } from '../../../src/scenarios/waits.ts';
import { durableTwoSteps, setup, statuses, twoSteps } from './run-fixture.ts';

describe('ScenarioRun', () => {
  it('plays to all green as the real facts arrive', async () => {
    const { stage, run, advance } = setup();
    run.play();
    await advance(200);
    expect(stage.resets).toEqual([{ store: 'memory', declareTasks: true }]);
    expect(stage.actions).toEqual(['call slow_compute {"seconds":1} declared']);
    expect(run.snapshot.status).toBe('running');
    expect(statuses(run)).toEqual(['handle:checking', 'completed:upcoming']);

    stage.addRow({ method: 'tools/call', gist: 'task working', taskId: 't1' });
    stage.setTask({ taskId: 't1' });
    await advance(200);
    expect(run.snapshot.stepIndex).toBe(1);
    expect(statuses(run)).toEqual(['handle:passed', 'completed:checking']);

    stage.setTask({ taskId: 't1', serverStatus: 'completed', final: 'completed' });
    await advance(200);
    expect(run.snapshot.status).toBe('passed');
    expect(statuses(run)).toEqual(['handle:passed', 'completed:passed']);
  });

  it('says red, with what it expected and what it saw, when the step is judged', async () => {
    const { stage, run, advance } = setup();
    run.play();
    stage.addRow({ method: 'tools/call', gist: 'task working', taskId: 't1' });
    stage.setTask({ taskId: 't1' });
    await advance(300);
    stage.setTask({ taskId: 't1', serverStatus: 'failed', final: 'failed' });
    await advance(200);
    expect(run.snapshot.status).toBe('failed');
    const red = run.snapshot.expectations.find((e) => e.id === 'completed')!;
    expect(red.status).toBe('failed');
    expect(explain(red)).toBe(
      'Expected the slow_compute task ends completed; saw the slow_compute task ended failed (server said failed).',
    );
  });

  it('a `throughout` expectation turns red the moment it is broken, mid-step', async () => {
    const never = defineScenario({
      ...twoSteps,
      steps: [
        {
          ...twoSteps.steps[0]!,
          expect: [
            wireNever('no-result', 'no tasks/result request', {
              direction: 'out',
              method: 'tasks/result',
            }),
          ],
        },
        twoSteps.steps[1]!,
      ],
    });
    const { stage, run, advance } = setup(never);
    run.play();
    await advance(200);
    expect(run.snapshot.expectations[0]!.status).toBe('checking');
    stage.addRow({ direction: 'out', kind: 'request', method: 'tasks/result', gist: '' });
    await advance(200);
    expect(run.snapshot.expectations[0]!.status).toBe('failed');
    expect(run.snapshot.expectations[0]!.saw).toBe('tasks/result sent');
    expect(run.snapshot.steps[0]!.status).toBe('waiting');
  });

  it('times out a step whose moment never comes: its expectations and the later ones go red', async () => {
    const { run, advance } = setup();
    run.play();
    await advance(20_100);
    expect(run.snapshot.status).toBe('failed');
    expect(run.snapshot.steps[0]).toEqual({
      status: 'timed-out',
      note: 'timed out after 20 s waiting for a slow_compute task to be followed',
    });
    expect(run.snapshot.expectations.map((e) => [e.status, e.saw])).toEqual([
      ['failed', 'no tools/call received among 0 messages'],
      ['failed', 'its step never ran'],
    ]);
  });

  it('a step that throws ends the run red and says why', async () => {
    const throwing = defineScenario({
      ...twoSteps,
      steps: [
        { ...twoSteps.steps[0]!, run: () => Promise.reject(new Error('no worker')) },
        twoSteps.steps[1]!,
      ],
    });
    const { run, advance } = setup(throwing);
    run.play();
    await advance(100);
    expect(run.snapshot.steps[0]).toEqual({ status: 'error', note: 'the step failed: no worker' });
    expect(run.snapshot.status).toBe('failed');
  });

  it('Step runs one step and pauses; Play carries on; Pause stops between steps', async () => {
    const { stage, run, advance } = setup(twoSteps, { speed: 1 });
    run.step();
    stage.addRow({ method: 'tools/call', gist: 'task working', taskId: 't1' });
    stage.setTask({ taskId: 't1' });
    await advance(500);
    expect(run.snapshot.status).toBe('paused');
    expect(run.snapshot.steps.map((s) => s.status)).toEqual(['done', 'upcoming']);
    await advance(10_000);
    expect(run.snapshot.stepIndex).toBe(0); // Paused: nothing moves on by itself.

    run.play();
    await advance(100);
    expect(run.snapshot.steps.map((s) => s.status)).toEqual(['done', 'waiting']);
    run.pause();
    expect(run.snapshot.status).toBe('paused');
    stage.setTask({ taskId: 't1', serverStatus: 'completed', final: 'completed' });
    await advance(200);
    // A step under way still finishes when paused: the server does not pause.
    expect(run.snapshot.status).toBe('passed');
  });

  it('at 1x it waits for the narration to be read before the next step', async () => {
    const { stage, run, advance } = setup(twoSteps, { speed: 1 });
    run.play();
    stage.addRow({ method: 'tools/call', gist: 'task working', taskId: 't1' });
    stage.setTask({ taskId: 't1' });
    await advance(300);
    expect(run.snapshot.steps[1]!.status).toBe('upcoming');
    await advance(readingDelayMs(twoSteps.steps[0]!.narration, 1));
    expect(run.snapshot.steps[1]!.status).toBe('waiting');
  });

  it('Restart abandons the run: back to ready, and late answers change nothing', async () => {
    const { stage, run, advance } = setup();
    run.play();
    await advance(200);
    run.restart();
    expect(run.snapshot.status).toBe('ready');
    expect(run.snapshot.expectations.every((e) => e.status === 'upcoming')).toBe(true);
    stage.addRow({ method: 'tools/call', gist: 'task working', taskId: 't1' });
    stage.setTask({ taskId: 't1' });
    await advance(1000);
    expect(run.snapshot.status).toBe('ready');
    run.play();
    await advance(200);
    expect(stage.resets).toHaveLength(2);
  });

  it("carries on after a reload from what it saved, without running the step's action again", async () => {
    let saved: Parameters<NonNullable<RunOptions['onchange']>>[1] | undefined;
    // Through JSON and the schema, as the page keeps it in sessionStorage.
    const first = setup(durableTwoSteps, {
      onchange: (_, s) => (saved = SavedRunSchema.parse(JSON.parse(JSON.stringify(s)))),
    });
    first.run.play();
    await first.advance(200);
    first.run.dispose(); // The page goes away mid-step.
    expect(saved?.actionDone).toBe(true);

    const second = setup(durableTwoSteps, { saved: saved! });
    second.clock.set(first.clock.now());
    second.stage.obs = first.stage.obs;
    second.stage.addRow({ method: 'tools/call', gist: 'task working', taskId: 't1' });
    second.stage.setTask({ taskId: 't1', serverStatus: 'completed', final: 'completed' });
    second.run.resume();
    await second.advance(500);
    expect(second.stage.actions).toEqual([]);
    expect(second.stage.resets).toEqual([]);
    expect(second.run.snapshot.status).toBe('passed');
  });

  it("holds the server's jobs between steps, however long the learner takes, and lets them go when a step acts", async () => {
    const { stage, run, advance } = setup(twoSteps);
    run.step();
    await advance(200);
    stage.addRow({ method: 'tools/call', gist: 'task working', taskId: 't1' });
    stage.setTask({ taskId: 't1' });
    await advance(200);
    expect(run.snapshot.status).toBe('paused');
    expect(stage.actions).toEqual(['call slow_compute {"seconds":1} declared']);
    expect(stage.holds).toEqual([true]);
    await advance(60_000);
    expect(stage.holds).toEqual([true]);
    run.step();
    expect(stage.holds).toEqual([true, false]);
    stage.setTask({ taskId: 't1', serverStatus: 'completed', final: 'completed' });
    await advance(200);
    // Ended: nothing is held any more.
    expect(run.snapshot.status).toBe('passed');
    expect(stage.holds.at(-1)).toBe(false);
  });

  it('a reload mid-run on the in-memory store ends the run red, saying why (the reload took the tasks with it)', async () => {
    const first = setup(twoSteps);
    first.run.play();
    await first.advance(200);
    const saved = first.run.saved;
    first.run.dispose();
    const second = setup(twoSteps, { saved });
    second.run.resume();
    expect(second.run.snapshot.status).toBe('failed');
    expect(second.stage.actions).toEqual([]);
    expect(second.run.snapshot.steps[0]).toEqual({
      status: 'error',
      note: expect.stringMatching(
        /^the page was reloaded mid-run, and this scenario's server kept its tasks in the worker's memory/,
      ),
    });
  });

  it('waitFor lets an action race the server whatever the pace', async () => {
    const racing = defineScenario({
      ...twoSteps,
      steps: [
        {
          id: 'race',
          title: 'Race',
          narration: 'Cancel as soon as it is followed.',
          run: async (stage, { waitFor }) => {
            stage.callTool('slow_compute', {}, true);
            const obs = await waitFor(taskFollowed('slow_compute'));
            stage.cancel(obs.tasks[0]!.taskId);
          },
          expect: [
            expectThat('cancelled', 'a cancel was sent', () => ({ pass: true, saw: 'yes' })),
          ],
        },
      ],
    });
    const { stage, run, advance } = setup(racing);
    run.play();
    await advance(300);
    expect(stage.actions).toEqual(['call slow_compute {} declared']);
    stage.setTask({ taskId: 't9' });
    await advance(200);
    expect(stage.actions).toEqual(['call slow_compute {} declared', 'cancel t9']);
    expect(run.snapshot.status).toBe('passed');
  });

  it('a planted expectation makes a passing run red, saying what it saw', async () => {
    const { stage, run, advance } = setup(withPlantedFailure(twoSteps));
    run.play();
    stage.addRow({ method: 'tools/call', gist: 'task working', taskId: 't1' });
    stage.setTask({ taskId: 't1', serverStatus: 'completed', final: 'completed' });
    await advance(500);
    expect(run.snapshot.status).toBe('failed');
    const planted = run.snapshot.expectations.find((e) => e.id === 'planted-wrong-outcome')!;
    expect(explain(planted)).toBe(
      'Expected the last task to end failed (planted on purpose by ?plant=wrong-outcome); saw the slow_compute task ended completed (server said completed).',
    );
    expect(
      run.snapshot.expectations
        .filter((e) => e.id !== planted.id)
        .every((e) => e.status === 'passed'),
    ).toBe(true);
  });
});

describe('SavedRunSchema', () => {
  it('refuses a saved run of another shape (an older page, or a hand-edited one)', () => {
    const { run } = setup();
    const good = JSON.parse(JSON.stringify(run.saved)) as { snapshot: Record<string, unknown> };
    expect(SavedRunSchema.safeParse(good).success).toBe(true);
    expect(
      SavedRunSchema.safeParse({ ...good, snapshot: { ...good.snapshot, status: 'sleeping' } })
        .success,
    ).toBe(false);
    expect(SavedRunSchema.safeParse({ snapshot: good.snapshot }).success).toBe(false);
  });
});

describe('readingDelayMs', () => {
  it('is zero at max speed and halves at 2x', () => {
    expect(readingDelayMs('some words', 'max')).toBe(0);
    expect(readingDelayMs('some words', 2)).toBe(readingDelayMs('some words', 1) / 2);
  });
});
