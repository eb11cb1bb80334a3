/** The drill ("predict the next state") against a fake stage and a simulated clock: asked, held, scored, shuffled. */
import { describe, expect, it } from 'vitest';
import { drillScore } from '../../../src/scenarios/run-state.ts';
import { durableTwoSteps, setup, twoSteps } from './run-fixture.ts';

describe('ScenarioRun: the drill', () => {
  it("the drill asks before a step's action, runs it on the guess, and scores it when the answer shows", async () => {
    const { stage, run, advance } = setup(twoSteps, { drill: true });
    run.play();
    await advance(300);
    expect(run.snapshot.status).toBe('predicting');
    // The action waits for the guess, and the server's jobs stand still meanwhile.
    expect(stage.holds).toEqual([true]);
    await advance(30_000);
    expect(stage.actions).toEqual([]);
    expect(stage.holds).toEqual([true]);
    run.guess('failed');
    await advance(100);
    expect(stage.holds).toEqual([true, false]);
    expect(stage.actions).toEqual(['call slow_compute {"seconds":1} declared']);
    stage.addRow({ method: 'tools/call', gist: 'task working', taskId: 't1' });
    stage.setTask({ taskId: 't1' });
    await advance(300);
    // Step 1 is judged, but its question is about the outcome: not answered yet.
    expect(run.snapshot.predictions[0]?.actual).toBeUndefined();
    stage.setTask({ taskId: 't1', serverStatus: 'completed', final: 'completed' });
    await advance(200);
    expect(run.snapshot.predictions).toEqual([
      {
        stepIndex: 0,
        question: 'How does it end?',
        choices: expect.arrayContaining(['completed', 'failed']),
        guess: 'failed',
        actual: 'completed',
        correct: false,
      },
    ]);
    expect(drillScore(run.snapshot.predictions)).toEqual({ right: 0, answered: 1 });
  });

  it('the drill shuffles the choices, so the right one (written first) is not always the first button', async () => {
    const firsts = new Set<string>();
    for (let start = 0; start < 12; start++) {
      const { clock, run, advance } = setup(twoSteps, { drill: true });
      clock.set(1_000_000 + start);
      run.play();
      await advance(200);
      const asked = run.snapshot.predictions[0]!;
      expect([...asked.choices].sort()).toEqual(['completed', 'failed']);
      firsts.add(asked.choices[0]!);
    }
    expect(firsts).toEqual(new Set(['completed', 'failed']));
  });

  it('the drill lets the held jobs go when the run restarts or is closed mid-question, and holds them again after a reload', async () => {
    const first = setup(durableTwoSteps, { drill: true });
    first.run.play();
    await first.advance(300);
    first.run.restart();
    expect(first.stage.holds).toEqual([true, false]);
    first.run.play();
    await first.advance(300);
    const saved = first.run.saved;
    first.run.dispose();
    expect(first.stage.holds).toEqual([true, false, true, false]);
    // The reloaded page's fresh worker runs its jobs: the open question holds them again.
    const second = setup(durableTwoSteps, { saved });
    second.run.resume();
    expect(second.run.snapshot.status).toBe('predicting');
    expect(second.stage.holds).toEqual([true]);
  });
});
