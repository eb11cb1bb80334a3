/**
 * A scenario run on the stage's world clock (the page's, `src/clock`), all on
 * one simulated wall clock: with the world paused, no reading delay, step
 * timeout or look moves the run on, however much wall time passes; in slow
 * motion its delays take longer in wall time; resumed, it plays to green.
 */
import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { WorldClock } from '../../../src/clock/world-clock.ts';
import { readingDelayMs } from '../../../src/scenarios/run-state.ts';
import { ScenarioRun, type RunOptions } from '../../../src/scenarios/run.ts';
import { FakeStage } from './fake-stage.ts';
import { statuses, twoSteps } from './run-fixture.ts';

/** A fake stage whose world runs on `clock`, as the page's stage runs on the page's world clock. */
class WorldStage extends FakeStage {
  constructor(readonly clock: WorldClock) {
    super(() => clock.now());
  }
}

function worldRun(options: RunOptions = {}) {
  const wall = new SimulatedClock();
  wall.set(1_000_000);
  const world = new WorldClock(wall);
  const stage = new WorldStage(world);
  // No scheduler given: the run takes the stage's clock.
  const run = new ScenarioRun(twoSteps, stage, { speed: 1, ...options });
  /** Lets promises settle, then moves the wall clock on in 100 ms ticks. */
  const advance = async (ms: number): Promise<void> => {
    for (let t = 0; t <= ms; t += 100) {
      for (let i = 0; i < 5; i++) await Promise.resolve();
      if (t < ms) wall.increment(Math.min(100, ms - t));
    }
  };
  /** The first step's facts: the handle arrived and the task is followed. */
  const handleArrives = () => {
    stage.addRow({ method: 'tools/call', gist: 'task working', taskId: 't1' });
    stage.setTask({ taskId: 't1' });
  };
  return { wall, world, stage, run, advance, handleArrives };
}

const firstReading = readingDelayMs(twoSteps.steps[0]!.narration, 1);

describe('a scenario run on the world clock', () => {
  it('with the world paused, the reading delay before the next step never ends; resumed, it does', async () => {
    const { world, run, advance, handleArrives } = worldRun();
    run.play();
    handleArrives();
    await advance(300);
    expect(run.snapshot.steps[1]!.status).toBe('upcoming');
    world.pause('test');
    await advance(firstReading * 5);
    expect(run.snapshot.steps[1]!.status).toBe('upcoming');
    world.resume();
    await advance(firstReading);
    expect(run.snapshot.steps[1]!.status).toBe('waiting');
  });

  it('in slow motion (0.5x) the reading delay takes twice its wall time', async () => {
    const { world, run, advance, handleArrives } = worldRun();
    world.setRate(0.5);
    run.play();
    handleArrives();
    await advance(300);
    await advance(firstReading);
    expect(run.snapshot.steps[1]!.status).toBe('upcoming');
    await advance(firstReading + 600);
    expect(run.snapshot.steps[1]!.status).toBe('waiting');
  });

  it('a step timeout does not run out while the world is paused; resumed, the run plays to all green', async () => {
    const { world, stage, run, advance, handleArrives } = worldRun({ speed: 'max' });
    run.play();
    handleArrives();
    await advance(300);
    expect(run.snapshot.stepIndex).toBe(1);
    world.pause('test');
    // The outcome step times out after 5000 ms of world time: none passes.
    await advance(20_000);
    expect(run.snapshot.status).toBe('running');
    expect(statuses(run)).toEqual(['handle:passed', 'completed:checking']);
    world.resume();
    stage.setTask({ taskId: 't1', serverStatus: 'completed', final: 'completed' });
    await advance(300);
    expect(run.snapshot.status).toBe('passed');
    expect(statuses(run)).toEqual(['handle:passed', 'completed:passed']);
  });

  it('without the pause the same step timeout does run out (the test above can fail)', async () => {
    const { run, advance, handleArrives } = worldRun({ speed: 'max' });
    run.play();
    handleArrives();
    await advance(300);
    await advance(6000);
    expect(run.snapshot.status).toBe('failed');
  });
});
