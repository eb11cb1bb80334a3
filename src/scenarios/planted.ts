/**
 * A deliberately wrong expectation, planted in any scenario by the page's
 * `?plant=wrong-outcome` flag, so a test (and a curious learner) can watch
 * the engine say red: what it expected, and what it saw instead. Kept out
 * of the registry, so no scenario ships wrong.
 */
import { describeTask } from './observation.ts';
import type { Expectation, ScenarioDefinition } from './scenario.ts';

export const PLANT_FLAG = 'wrong-outcome';

/** Expects the last task the run followed to end `failed`: wrong for every scenario whose last task does not fail. */
export const plantedExpectation: Expectation = {
  id: 'planted-wrong-outcome',
  description: 'the last task to end failed (planted on purpose by ?plant=wrong-outcome)',
  check(obs) {
    const task = obs.tasks.at(-1);
    return { pass: task?.final === 'failed', saw: describeTask(task) };
  },
};

/** The scenario with the planted expectation added to its last step. */
export function withPlantedFailure<Id extends string>(
  scenario: ScenarioDefinition<Id>,
): ScenarioDefinition<Id> {
  const steps = scenario.steps.map((step, i) =>
    i === scenario.steps.length - 1
      ? { ...step, expect: [...(step.expect ?? []), plantedExpectation] }
      : step,
  );
  return { ...scenario, steps };
}
