/**
 * A scenario is data: its steps, what to say at each, what each step does to
 * the playground, and the expectations it checks against what really
 * happened. The engine (run.ts) plays it; nothing here touches the page.
 */
import type { Observation } from './observation.ts';
import type { ScenarioStage, StageSetup } from './stage.ts';

/** An expectation's judgement at one moment: did it hold, and what was seen. */
export interface Verdict {
  pass: boolean;
  /** What the playground showed, in words: the "saw Y" of a red expectation. */
  saw: string;
}

/**
 * Something that must be true of the real wire messages and machine states.
 * - `eventually` (default): green as soon as it holds during its step; red
 *   if it still does not hold when the step is judged.
 * - `throughout`: checked on every tick from its step to the end of the run;
 *   red the moment it fails, green when the run ends.
 */
export interface Expectation {
  id: string;
  /** What is expected, as a learner reads it: the "expected X". */
  description: string;
  kind?: 'eventually' | 'throughout';
  check(obs: Observation): Verdict;
}

/** What a step waits for before its expectations are judged. */
export interface Wait {
  description: string;
  holds(obs: Observation): boolean;
}

/** What a step's action gets besides the stage. */
export interface StepContext {
  /** The facts so far (e.g. the taskId to probe). */
  obs: Observation;
  /**
   * Resolves with the observation once `wait` holds (rejects after
   * `timeoutMs`, default 10 s): for an action that must race the server
   * (cancel the moment a task is working), whatever the speed or a learner's pace.
   */
  waitFor(wait: Wait, timeoutMs?: number): Promise<Observation>;
  /** Playing at full speed (CI, `speed=max`): jobs may be given shorter durations. */
  fast: boolean;
}

/**
 * A "predict the next state" question (the drill): asked before the step's
 * action runs, with the server's jobs held meanwhile (the client's polls go
 * on, but no task moves on under the question), answered by the playground
 * once the step, or the later step `judgeAtStep`, is judged.
 */
export interface Prediction {
  question: string;
  choices: readonly string[];
  /** The real answer, read from the observation (one of `choices`, or something else if the run surprised us). */
  actual(obs: Observation): string;
  /** The id of the later step whose end reveals the answer; this step by default. */
  judgeAtStep?: string;
}

/** A link the learner is asked to open in a second tab (the query string of this page). */
export interface TabLink {
  label: string;
  query: Record<string, string>;
}

export interface Step {
  id: string;
  title: string;
  narration: string;
  /** Real ms to wait before the action (time the server needs, e.g. until a TTL passes). */
  delayMs?: number;
  /** What the step does to the playground. */
  run?(stage: ScenarioStage, context: StepContext): void | Promise<void>;
  /**
   * When to judge the step. Without it, the step ends as soon as all its
   * `eventually` expectations are green (or at the timeout).
   */
  until?: Wait;
  /** Longest wait for `until`, in real ms (default 20 s). */
  timeoutMs?: number;
  expect?: readonly Expectation[];
  predict?: Prediction;
  /** A link to open in a second tab while this step waits. */
  tabLink?(obs: Observation): TabLink | undefined;
}

export interface ScenarioDefinition<Id extends string = string> {
  id: Id;
  title: string;
  /** The one point it makes, in a sentence. */
  summary: string;
  /** The rule ids (docs/tasks-2026-07-28.md) it demonstrates. */
  specIds: readonly string[];
  setup?: Partial<StageSetup>;
  steps: readonly Step[];
}

/** Identity for a scenario literal: keeps its id's literal type for the registry. */
export function defineScenario<const Id extends string>(
  scenario: ScenarioDefinition<Id>,
): ScenarioDefinition<Id> {
  return scenario;
}
