/**
 * The scenario run's bookkeeping as pure functions: a fresh run's data, a
 * step entered, expectations checked against an observation, a step judged
 * (what is not green by then is red; a drill question answered), and the
 * run's verdict. The run machine (`run-machine.ts`) calls them with the
 * observation an event carried; nothing here reads a clock or a stage.
 */
import { Prng } from '../net/prng.ts';
import { errorMessage } from '../protocol/error-message.ts';
import type { Observation } from './observation.ts';
import type { ExpectationState, RunSnapshot, StepState } from './run-state.ts';
import type { Expectation, ScenarioDefinition, Verdict } from './scenario.ts';

/** The parts of a run that change as it plays: a snapshot without its status (the machine's state says that). */
export type RunProgress = Omit<RunSnapshot, 'status' | 'scenarioId'>;

export function freshProgress(
  scenario: ScenarioDefinition,
  speed: RunProgress['speed'],
  drill: boolean,
): RunProgress {
  return {
    stepIndex: -1,
    steps: scenario.steps.map(() => ({ status: 'upcoming' })),
    expectations: scenario.steps.flatMap((step, stepIndex) =>
      (step.expect ?? []).map((e): ExpectationState => ({
        id: e.id,
        stepIndex,
        description: e.description,
        kind: e.kind ?? 'eventually',
        status: 'upcoming',
      })),
    ),
    predictions: [],
    speed,
    drill,
    startedAt: undefined,
  };
}

export function withStep(progress: RunProgress, index: number, state: StepState): RunProgress {
  return { ...progress, steps: progress.steps.map((s, i) => (i === index ? state : s)) };
}

/** Step `index` begins: it acts, its expectations start being checked, and in the drill its question is asked. */
export function enterStep(
  scenario: ScenarioDefinition,
  progress: RunProgress,
  index: number,
): RunProgress {
  const step = scenario.steps[index];
  if (!step) return progress;
  const entered: RunProgress = {
    ...withStep(progress, index, { status: 'acting' }),
    stepIndex: index,
    expectations: progress.expectations.map((e) =>
      e.stepIndex === index ? { ...e, status: 'checking' } : e,
    ),
  };
  if (!progress.drill || !step.predict) return entered;
  // Shuffled, or the right answer (written first in every scenario) would always be the first button; seeded, so a reload keeps the order.
  const choices = shuffled(step.predict.choices, new Prng((progress.startedAt ?? 0) + index));
  return {
    ...entered,
    predictions: [
      ...progress.predictions.filter((p) => p.stepIndex !== index),
      { stepIndex: index, question: step.predict.question, choices },
    ],
  };
}

/** Every expectation being checked, against `obs`; the same array when nothing changed. */
export function checkExpectations(
  scenario: ScenarioDefinition,
  expectations: RunProgress['expectations'],
  obs: Observation,
): RunProgress['expectations'] {
  let changed = false;
  const checked = expectations.map((state) => {
    if (state.status !== 'checking') return state;
    const verdict = judgeOne(expectationOf(scenario, state), obs);
    const status =
      state.kind === 'throughout'
        ? verdict.pass
          ? 'checking'
          : 'failed'
        : verdict.pass
          ? 'passed'
          : 'checking';
    if (status === state.status && verdict.saw === state.saw) return state;
    changed = true;
    return { ...state, status, saw: verdict.saw } satisfies ExpectationState;
  });
  return changed ? checked : expectations;
}

/** Whether the waiting step's moment came: its `until` holds, or without one all its `eventually` expectations are green. */
export function momentCame(
  scenario: ScenarioDefinition,
  progress: RunProgress,
  obs: Observation,
): boolean {
  const index = progress.stepIndex;
  const step = scenario.steps[index];
  if (!step) return false;
  if (step.until) return safely(() => step.until!.holds(obs), false);
  return checkExpectations(scenario, progress.expectations, obs)
    .filter((e) => e.stepIndex === index && e.kind === 'eventually')
    .every((e) => e.status === 'passed');
}

/** The step's moment of truth: what is not green by now is red, and drill questions it answers are answered. */
export function judgeStep(
  scenario: ScenarioDefinition,
  progress: RunProgress,
  obs: Observation,
): RunProgress {
  const index = progress.stepIndex;
  const expectations = checkExpectations(scenario, progress.expectations, obs).map((e) =>
    e.stepIndex === index && e.kind === 'eventually' && e.status === 'checking'
      ? { ...e, status: 'failed' as const }
      : e,
  );
  const predictions = progress.predictions.map((p) => {
    const predict = scenario.steps[p.stepIndex]?.predict;
    if (!predict || p.actual !== undefined || judgedAt(scenario, p.stepIndex) !== index) return p;
    const actual = safely(() => predict.actual(obs), 'unknown');
    return { ...p, actual, ...(p.guess !== undefined ? { correct: p.guess === actual } : {}) };
  });
  const status = progress.steps[index]?.status;
  const judged = { ...progress, expectations, predictions };
  return status === 'waiting' || status === 'acting'
    ? withStep(judged, index, { status: 'done' })
    : judged;
}

/** The run's end: every expectation settled (a `throughout` one still holding is green). */
export function finishRun(
  scenario: ScenarioDefinition,
  progress: RunProgress,
  obs: Observation,
): RunProgress {
  const expectations = checkExpectations(scenario, progress.expectations, obs).map(
    (e): ExpectationState => {
      if (e.status === 'upcoming') return { ...e, status: 'failed', saw: 'its step never ran' };
      if (e.status === 'checking')
        return { ...e, status: e.kind === 'throughout' ? 'passed' : 'failed' };
      return e;
    },
  );
  return { ...progress, expectations };
}

/** Whether a finished run passed: every step ran and every expectation is green. */
export function runPassed(progress: RunProgress): boolean {
  return (
    progress.steps.every((s) => s.status === 'done') &&
    progress.expectations.every((e) => e.status === 'passed')
  );
}

/** The index of the step whose end answers the prediction asked before step `index`. */
function judgedAt(scenario: ScenarioDefinition, index: number): number {
  const id = scenario.steps[index]?.predict?.judgeAtStep;
  const at = id === undefined ? -1 : scenario.steps.findIndex((s) => s.id === id);
  return at >= 0 ? at : index;
}

function expectationOf(scenario: ScenarioDefinition, state: ExpectationState): Expectation {
  const found = scenario.steps[state.stepIndex]?.expect?.find((e) => e.id === state.id);
  if (!found) throw new Error(`scenario ${scenario.id} has no expectation ${state.id}`);
  return found;
}

/** A copy of `items` in an order drawn from `prng` (Fisher-Yates). */
function shuffled<T>(items: readonly T[], prng: Prng): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(prng.next() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** A check that throws is a red expectation that says why, not a crashed run. */
function judgeOne(expectation: Expectation, obs: Observation): Verdict {
  try {
    return expectation.check(obs);
  } catch (error) {
    return {
      pass: false,
      saw: `the check itself failed: ${errorMessage(error)}`,
    };
  }
}

export function safely<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}
