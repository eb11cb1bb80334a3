/**
 * The run machine's states, driven directly with fake actors on a simulated
 * clock: which state each moment of a run is, the tags the page reads
 * (`jobsHeld`, `actionDone`, `predicting`), what Restart stops, how a saved
 * run is resumed, and that waiting is driven by the stage's pushes.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import type { Observation } from '../../../src/scenarios/observation.ts';
import { runMachine, type ActInput } from '../../../src/scenarios/run-machine.ts';
import type { SavedRun } from '../../../src/scenarios/run-state.ts';
import type { StageSetup } from '../../../src/scenarios/stage.ts';
import { ScenarioRun, TICK_MS } from '../../../src/scenarios/run.ts';
import { defineScenario } from '../../../src/scenarios/scenario.ts';
import { durableTwoSteps, setup, twoSteps } from './run-fixture.ts';
import { FakeStage } from './fake-stage.ts';

const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** The machine with actors the test controls: the stage's facts are whatever `look` sends. */
function machineRun(saved?: SavedRun, drill = false) {
  const clock = new SimulatedClock();
  const stage = new FakeStage(() => clock.now());
  const log = { resets: 0, acted: [] as number[], aborted: 0, watching: 0 };
  let push: (obs: Observation) => void = () => {};
  const machine = runMachine.provide({
    actors: {
      resetStage: fromPromise<void, StageSetup>(async () => {
        log.resets++;
      }),
      act: fromPromise<void, ActInput>(async ({ input, signal }) => {
        log.acted.push(input.stepIndex);
        signal.addEventListener('abort', () => log.aborted++);
      }),
      watchStage: fromCallback<{ type: 'look' }, { since: number }>(({ sendBack, receive }) => {
        log.watching++;
        push = (obs) => sendBack({ type: 'stage.observed', obs });
        receive(() => push(stage.observe(0)));
        return () => void log.watching--;
      }),
    },
  });
  const actor = createActor(machine, {
    clock,
    input: { scenario: durableTwoSteps, speed: 1, drill, now: () => clock.now(), saved },
  }).start();
  const value = () => actor.getSnapshot().value;
  const tags = () => [...actor.getSnapshot().tags].sort();
  const arrive = () => {
    stage.addRow({ method: 'tools/call', gist: 'task working', taskId: 't1' });
    stage.setTask({ taskId: 't1' });
    push(stage.observe(0));
  };
  const finish = () => {
    stage.setTask({ taskId: 't1', serverStatus: 'completed', final: 'completed' });
    push(stage.observe(0));
  };
  return { actor, clock, stage, log, value, tags, arrive, finish };
}

describe('runMachine states', () => {
  it('walks ready, starting, acting, watching, between and on to passed, tagged as the page reads it', async () => {
    const run = machineRun();
    expect(run.value()).toEqual({ pace: 'paused', progress: 'ready' });
    run.actor.send({ type: 'run.play' });
    expect(run.value()).toEqual({ pace: 'playing', progress: 'starting' });
    await settle();
    expect(run.log.resets).toBe(1);
    expect(run.log.acted).toEqual([0]);
    expect(run.value()).toEqual({ pace: 'playing', progress: { step: 'watching' } });
    expect(run.tags()).toEqual(['actionDone']);

    run.arrive();
    expect(run.value()).toEqual({ pace: 'playing', progress: { step: 'between' } });
    expect(run.tags()).toEqual(['jobsHeld']);
    expect(run.actor.getSnapshot().context.steps.map((s) => s.status)).toEqual([
      'done',
      'upcoming',
    ]);

    run.clock.increment(60_000); // The narration is read: on to step 2, which has no action.
    await settle();
    expect(run.value()).toEqual({ pace: 'playing', progress: { step: 'watching' } });
    run.finish();
    expect(run.value()).toEqual({ pace: 'playing', progress: 'passed' });
    expect(run.log.watching).toBe(0); // Nothing watches a finished run.
  });

  it('paused, a judged step waits in between however long it takes; Step moves on and stays paused', async () => {
    const run = machineRun();
    run.actor.send({ type: 'run.step' });
    await settle();
    run.arrive();
    expect(run.value()).toEqual({ pace: 'paused', progress: { step: 'between' } });
    run.clock.increment(600_000);
    expect(run.value()).toEqual({ pace: 'paused', progress: { step: 'between' } });
    run.actor.send({ type: 'run.step' });
    await settle();
    expect(run.value()).toEqual({ pace: 'paused', progress: { step: 'watching' } });
    expect(run.actor.getSnapshot().context.stepIndex).toBe(1);
  });

  it('a drill question is the asking state: jobs held, nothing acted until the guess', async () => {
    const run = machineRun(undefined, true);
    run.actor.send({ type: 'run.play' });
    await settle();
    expect(run.value()).toEqual({ pace: 'playing', progress: { step: 'asking' } });
    expect(run.tags()).toEqual(['jobsHeld', 'predicting']);
    run.clock.increment(600_000);
    expect(run.log.acted).toEqual([]);
    run.actor.send({ type: 'run.guess', choice: 'completed' });
    await settle();
    expect(run.log.acted).toEqual([0]);
    expect(run.actor.getSnapshot().context.predictions[0]?.guess).toBe('completed');
  });

  it('Restart from a step stops the watcher and the action under way, and starts clean', async () => {
    const run = machineRun();
    run.actor.send({ type: 'run.play' });
    await settle();
    run.actor.send({ type: 'run.restart' });
    await settle();
    expect(run.value()).toEqual({ pace: 'paused', progress: 'ready' });
    expect(run.log.watching).toBe(0);
    expect(run.actor.getSnapshot().context.steps.every((s) => s.status === 'upcoming')).toBe(true);
    run.arrive(); // A late answer of the abandoned run reaches nothing.
    expect(run.value()).toEqual({ pace: 'paused', progress: 'ready' });
  });

  it('T12: a step that times out stops the run red, from the step timer alone', async () => {
    const run = machineRun();
    run.actor.send({ type: 'run.play' });
    await settle();
    run.clock.increment(20_000);
    expect(run.value()).toEqual({ pace: 'playing', progress: 'failed' });
    expect(run.actor.getSnapshot().context.steps[0]?.status).toBe('timed-out');
  });

  it('a saved run waits in restored, then resumes in the state it was saved in', async () => {
    const saving = setup(durableTwoSteps);
    saving.run.play();
    await saving.advance(200);
    const watchingSaved = saving.run.saved; // The action ran; its moment has not come.
    saving.run.dispose();
    const notActed: SavedRun = { ...watchingSaved, actionDone: false };

    const resumed = machineRun(watchingSaved);
    expect(resumed.value()).toEqual({ pace: 'playing', progress: 'restored' });
    resumed.actor.send({ type: 'run.resume' });
    expect(resumed.value()).toEqual({ pace: 'playing', progress: { step: 'watching' } });
    expect(resumed.log.acted).toEqual([]);

    const again = machineRun(notActed);
    again.actor.send({ type: 'run.resume' });
    expect(again.value()).toMatchObject({ progress: { step: { acting: 'running' } } });
    await settle();
    expect(again.log.acted).toEqual([0]);
  });

  it("a step's delayMs runs on the clock before its action, and the action counts as done only once it starts", async () => {
    const delayed = defineScenario({
      ...twoSteps,
      steps: [{ ...twoSteps.steps[0]!, delayMs: 1000 }, twoSteps.steps[1]!],
    });
    const { clock, stage, run } = setup(delayed);
    run.play();
    await settle();
    clock.increment(999);
    await settle();
    expect(stage.actions).toEqual([]);
    expect(run.saved.actionDone).toBe(false); // A reload now runs the action after the load.
    clock.increment(1);
    await settle();
    expect(stage.actions).toEqual(['call slow_compute {"seconds":1} declared']);
    expect(run.saved.actionDone).toBe(true);
  });
});

describe('ScenarioRun and the stage', () => {
  it('a stage that pushes its changes is not polled: the step is judged on the push, with no time passing', async () => {
    const { stage, run } = setup(twoSteps);
    run.play();
    await settle();
    expect(stage.watchers).toBe(1);
    stage.addRow({ method: 'tools/call', gist: 'task working', taskId: 't1' });
    stage.setTask({ taskId: 't1' });
    expect(run.snapshot.steps[0]?.status).toBe('done');
    run.dispose();
    expect(stage.watchers).toBe(0);
  });

  it('a stage that cannot push is looked at every TICK_MS', async () => {
    const clock = new SimulatedClock();
    const stage = new FakeStage(() => clock.now(), { pushes: false });
    const run = new ScenarioRun(twoSteps, stage, { scheduler: clock, speed: 'max' });
    run.play();
    await settle();
    const before = stage.observations;
    for (let i = 0; i < 5; i++) clock.increment(TICK_MS);
    expect(stage.observations - before).toBe(5);
    stage.setTask({ taskId: 't1' });
    stage.addRow({ method: 'tools/call', gist: 'task working', taskId: 't1' });
    expect(run.snapshot.steps[0]?.status).toBe('waiting'); // Not seen until the next look.
    clock.increment(TICK_MS);
    expect(run.snapshot.steps[0]?.status).toBe('done');
    run.dispose();
  });
});
