/** The scenarios and the driver the engine's tests share: a fake stage and a simulated clock. */
import { SimulatedClock } from 'xstate';
import { taskEnds, wireShows } from '../../../src/scenarios/expect.ts';
import type { RunSnapshot } from '../../../src/scenarios/run-state.ts';
import { ScenarioRun, type RunOptions } from '../../../src/scenarios/run.ts';
import { defineScenario, type ScenarioDefinition } from '../../../src/scenarios/scenario.ts';
import { taskFinished, taskFollowed } from '../../../src/scenarios/waits.ts';
import { FakeStage } from './fake-stage.ts';

/** Two steps: call (waits for a task), then wait for its outcome and expect completed. */
export const twoSteps = defineScenario({
  id: 'two-steps',
  title: 'Two steps',
  summary: 'A call, then its outcome.',
  specIds: ['T7'],
  steps: [
    {
      id: 'call',
      title: 'Call',
      narration: 'Calls slow_compute.',
      run: (stage) => stage.callTool('slow_compute', { seconds: 1 }, true),
      until: taskFollowed('slow_compute'),
      predict: {
        question: 'How does it end?',
        choices: ['completed', 'failed'],
        actual: (obs) => obs.tasks.at(-1)?.final ?? 'running',
        judgeAtStep: 'outcome',
      },
      expect: [
        wireShows('handle', 'a task handle', { direction: 'in', method: 'tools/call' }, (row) =>
          row.gist.startsWith('task'),
        ),
      ],
    },
    {
      id: 'outcome',
      title: 'Outcome',
      narration: 'Waits for the outcome.',
      until: taskFinished('slow_compute'),
      timeoutMs: 5000,
      expect: [taskEnds('completed', 'slow_compute', 'completed')],
    },
  ],
});

/** The same on the IndexedDB store, whose tasks outlive a reload. */
export const durableTwoSteps = defineScenario({ ...twoSteps, setup: { store: 'indexeddb' } });

export function setup(scenario: ScenarioDefinition = twoSteps, options: RunOptions = {}) {
  const clock = new SimulatedClock();
  clock.set(1_000_000);
  const stage = new FakeStage(() => clock.now());
  const snapshots: RunSnapshot[] = [];
  const run = new ScenarioRun(scenario, stage, {
    scheduler: clock,
    speed: 'max',
    ...options,
    onchange: (snapshot, saved) => (snapshots.push(snapshot), options.onchange?.(snapshot, saved)),
  });
  /** Lets promises settle, then moves the clock on in ticks. */
  const advance = async (ms: number): Promise<void> => {
    for (let t = 0; t <= ms; t += 100) {
      for (let i = 0; i < 5; i++) await Promise.resolve();
      if (t < ms) clock.increment(Math.min(100, ms - t));
    }
  };
  return { clock, stage, run, snapshots, advance };
}

export const statuses = (run: ScenarioRun) =>
  run.snapshot.expectations.map((e) => `${e.id}:${e.status}`);
