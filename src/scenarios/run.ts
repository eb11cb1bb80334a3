/**
 * The scenario engine: plays a scenario's steps against a stage, step by
 * step or by itself at a speed, judges each expectation against what the
 * stage really shows, and can pause, restart and carry on after a reload.
 * Pure: time comes from a Scheduler, the page from a ScenarioStage.
 */
import { Prng } from '../net/prng.ts';
import { realScheduler, type Scheduler } from '../net/scheduler.ts';
import type { Observation } from './observation.ts';
import {
  readingDelayMs,
  type ExpectationState,
  type RunSnapshot,
  type SavedRun,
  type Speed,
  type StepState,
} from './run-state.ts';
import type { Expectation, ScenarioDefinition, Verdict, Wait } from './scenario.ts';
import type { ScenarioStage } from './stage.ts';
import { errorMessage } from '../protocol/error-message.ts';

export const DEFAULT_STEP_TIMEOUT_MS = 20_000;
/** How often a waiting step looks at the stage. */
export const TICK_MS = 100;

export interface RunOptions {
  scheduler?: Scheduler;
  speed?: Speed;
  /** Ask for a prediction before each step that has one. */
  drill?: boolean;
  /** A run saved before a reload, to carry on with {@link ScenarioRun.resume}. */
  saved?: SavedRun;
  /** Every change, with what to save so a reload can carry on. */
  onchange?: (snapshot: RunSnapshot, saved: SavedRun) => void;
}

const TERMINAL = new Set(['passed', 'failed']);

export class ScenarioRun {
  readonly scenario: ScenarioDefinition;
  readonly #stage: ScenarioStage;
  readonly #scheduler: Scheduler;
  readonly #onchange: RunOptions['onchange'];
  #snapshot: RunSnapshot;
  /** Whether the current step's action has run (never run twice, even across a reload). */
  #actionDone = false;
  #autoplay = false;
  #timer: unknown;
  #waitingSince = 0;
  /** Bumped by restart, so the continuations of an abandoned run stop. */
  #generation = 0;
  /** Whether this run has the server's jobs held (see {@link jobsHeldIn}). */
  #jobsHeld = false;

  constructor(scenario: ScenarioDefinition, stage: ScenarioStage, options: RunOptions = {}) {
    this.scenario = scenario;
    this.#stage = stage;
    this.#scheduler = options.scheduler ?? realScheduler;
    this.#onchange = options.onchange;
    if (
      options.saved &&
      options.saved.snapshot.scenarioId === scenario.id &&
      options.saved.snapshot.steps.length === scenario.steps.length
    ) {
      this.#snapshot = options.saved.snapshot;
      this.#actionDone = options.saved.actionDone;
      this.#autoplay = options.saved.autoplay;
    } else {
      this.#snapshot = freshSnapshot(scenario, options.speed ?? 1, options.drill ?? false);
    }
  }

  get snapshot(): RunSnapshot {
    return this.#snapshot;
  }

  /** What to save so that a reload carries on. */
  get saved(): SavedRun {
    return { snapshot: this.#snapshot, actionDone: this.#actionDone, autoplay: this.#autoplay };
  }

  /** Plays by itself from where it is. */
  play(): void {
    if (TERMINAL.has(this.#snapshot.status)) return;
    this.#autoplay = true;
    const { status, stepIndex } = this.#snapshot;
    if (status === 'ready') return void this.#begin();
    if (status === 'predicting') return this.#emit();
    this.#set({ status: 'running' });
    if (this.#betweenSteps()) this.#enter(stepIndex + 1);
  }

  /** Stops after the current step (a step under way still finishes: the server does not pause). */
  pause(): void {
    this.#autoplay = false;
    if (this.#snapshot.status === 'running') this.#set({ status: 'paused' });
    if (this.#betweenSteps()) this.#scheduler.clearTimeout(this.#timer);
  }

  /** Runs the next step, then pauses. */
  step(): void {
    if (TERMINAL.has(this.#snapshot.status)) return;
    this.#autoplay = false;
    if (this.#snapshot.status === 'ready') return void this.#begin();
    if (this.#betweenSteps()) {
      this.#scheduler.clearTimeout(this.#timer);
      this.#set({ status: 'paused' });
      this.#enter(this.#snapshot.stepIndex + 1);
    }
  }

  /** Back to the start; the stage is reset when it plays again. */
  restart(): void {
    this.#generation++;
    this.#scheduler.clearTimeout(this.#timer);
    this.#autoplay = false;
    this.#actionDone = false;
    this.#snapshot = freshSnapshot(this.scenario, this.#snapshot.speed, this.#snapshot.drill);
    this.#emit();
  }

  setSpeed(speed: Speed): void {
    this.#set({ speed });
  }

  /** The drill on or off; it applies from the next step. */
  setDrill(drill: boolean): void {
    this.#set({ drill });
  }

  /** The learner's guess for the step waiting in `predicting`; the step then runs. */
  guess(choice: string): void {
    if (this.#snapshot.status !== 'predicting') return;
    const index = this.#snapshot.stepIndex;
    this.#set({
      status: this.#autoplay ? 'running' : 'paused',
      predictions: this.#snapshot.predictions.map((p) =>
        p.stepIndex === index ? { ...p, guess: choice } : p,
      ),
    });
    void this.#act(index);
  }

  /** Carries a saved run on (after a reload): waits for the step whose action ran, or goes on to the next. */
  resume(): void {
    const { status, stepIndex } = this.#snapshot;
    if (
      !TERMINAL.has(status) &&
      status !== 'ready' &&
      (this.scenario.setup?.store ?? 'memory') === 'memory'
    ) {
      // No scenario on the in-memory store reloads on purpose: the learner did, and the worker holding the run's tasks went with the page.
      const note =
        "the page was reloaded mid-run, and this scenario's server kept its tasks in the worker's memory, which the reload ended; Restart to run it again";
      this.#setStep(Math.max(0, stepIndex), { status: 'error', note });
      return this.#finish();
    }
    if (TERMINAL.has(status) || status === 'ready' || status === 'predicting') return this.#emit();
    if (this.#betweenSteps()) {
      if (this.#autoplay) this.#enter(stepIndex + 1);
      else this.#set({ status: 'paused' });
      return;
    }
    if (this.#actionDone) return this.#startWaiting();
    void this.#act(stepIndex);
  }

  /** Stops every timer (the page is going away, or another scenario opens). */
  dispose(): void {
    this.#holdJobs(false);
    this.#generation++;
    this.#scheduler.clearTimeout(this.#timer);
  }

  #betweenSteps(): boolean {
    const { stepIndex, steps } = this.#snapshot;
    return stepIndex === -1 || steps[stepIndex]?.status === 'done';
  }

  async #begin(): Promise<void> {
    const generation = this.#generation;
    this.#set({ status: this.#autoplay ? 'running' : 'paused' });
    await this.#stage.reset({ store: 'memory', declareTasks: true, ...this.scenario.setup });
    if (generation !== this.#generation) return;
    this.#set({ startedAt: this.#scheduler.now() });
    this.#enter(0);
  }

  #enter(index: number): void {
    const step = this.scenario.steps[index];
    if (!step) return this.#finish();
    this.#actionDone = false;
    this.#setStep(index, { status: 'acting' });
    this.#set({
      stepIndex: index,
      expectations: this.#snapshot.expectations.map((e) =>
        e.stepIndex === index ? { ...e, status: 'checking' } : e,
      ),
    });
    if (this.#snapshot.drill && step.predict) {
      const predictions = this.#snapshot.predictions.filter((p) => p.stepIndex !== index);
      // Shuffled, or the right answer (written first in every scenario) would always be the first button; seeded, so a reload keeps the order.
      const choices = shuffled(
        step.predict.choices,
        new Prng((this.#snapshot.startedAt ?? 0) + index),
      );
      this.#set({
        status: 'predicting',
        predictions: [
          ...predictions,
          { stepIndex: index, question: step.predict.question, choices },
        ],
      });
      return;
    }
    void this.#act(index);
  }

  async #act(index: number): Promise<void> {
    const step = this.scenario.steps[index]!;
    const generation = this.#generation;
    // Saved before the action, so an action that reloads the page is not run again after the load.
    this.#actionDone = true;
    this.#emit();
    try {
      if (step.delayMs)
        await new Promise<void>(
          (resolve) => (this.#timer = this.#scheduler.setTimeout(() => resolve(), step.delayMs!)),
        );
      if (generation !== this.#generation) return;
      await step.run?.(this.#stage, {
        obs: this.#observe(),
        waitFor: (wait, timeoutMs) => this.#waitFor(wait, timeoutMs ?? 10_000, generation),
        fast: this.#snapshot.speed === 'max',
      });
    } catch (error) {
      if (generation !== this.#generation) return;
      this.#setStep(index, {
        status: 'error',
        note: `the step failed: ${errorMessage(error)}`,
      });
      this.#judge(index, true);
      return;
    }
    if (generation !== this.#generation) return;
    this.#startWaiting();
  }

  /** Polls the stage until `wait` holds; a restart abandons it (rejects, and #act sees the new generation). */
  #waitFor(wait: Wait, timeoutMs: number, generation: number): Promise<Observation> {
    const deadline = this.#scheduler.now() + timeoutMs;
    return new Promise((resolve, reject) => {
      const poll = (): void => {
        if (generation !== this.#generation) return reject(new Error('run restarted'));
        const obs = this.#observe();
        if (safely(() => wait.holds(obs), false)) return resolve(obs);
        if (this.#scheduler.now() >= deadline)
          return reject(
            new Error(
              `timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${wait.description}`,
            ),
          );
        this.#scheduler.setTimeout(poll, TICK_MS);
      };
      poll();
    });
  }

  #startWaiting(): void {
    this.#waitingSince = this.#scheduler.now();
    this.#setStep(this.#snapshot.stepIndex, { status: 'waiting' });
    this.#tick();
  }

  #tick(): void {
    this.#scheduler.clearTimeout(this.#timer);
    if (TERMINAL.has(this.#snapshot.status)) return;
    const obs = this.#observe();
    this.#checkExpectations(obs);
    const index = this.#snapshot.stepIndex;
    const step = this.scenario.steps[index];
    if (!step || this.#snapshot.steps[index]?.status !== 'waiting') return;
    const mine = this.#snapshot.expectations.filter(
      (e) => e.stepIndex === index && e.kind === 'eventually',
    );
    const ready = step.until
      ? safely(() => step.until!.holds(obs), false)
      : mine.every((e) => e.status === 'passed');
    if (ready) return this.#judge(index, false);
    const timeoutMs = step.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
    if (this.#scheduler.now() - this.#waitingSince >= timeoutMs) {
      const awaited = step.until?.description ?? 'its expectations';
      this.#setStep(index, {
        status: 'timed-out',
        note: `timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${awaited}`,
      });
      return this.#judge(index, true);
    }
    this.#timer = this.#scheduler.setTimeout(() => this.#tick(), TICK_MS);
  }

  #checkExpectations(obs: Observation): void {
    let changed = false;
    const expectations = this.#snapshot.expectations.map((state) => {
      if (state.status !== 'checking') return state;
      const verdict = judgeOne(this.#expectation(state), obs);
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
    if (changed) this.#set({ expectations });
  }

  /** The step's moment of truth: what is not green by now is red. */
  #judge(index: number, stopRun: boolean): void {
    const obs = this.#observe();
    this.#checkExpectations(obs);
    this.#set({
      expectations: this.#snapshot.expectations.map((e) =>
        e.stepIndex === index && e.kind === 'eventually' && e.status === 'checking'
          ? { ...e, status: 'failed' }
          : e,
      ),
      predictions: this.#snapshot.predictions.map((p) => {
        const predict = this.scenario.steps[p.stepIndex]?.predict;
        if (!predict || p.actual !== undefined || this.#judgedAt(p.stepIndex) !== index) return p;
        const actual = safely(() => predict.actual(obs), 'unknown');
        return { ...p, actual, ...(p.guess !== undefined ? { correct: p.guess === actual } : {}) };
      }),
    });
    if (
      this.#snapshot.steps[index]?.status === 'waiting' ||
      this.#snapshot.steps[index]?.status === 'acting'
    )
      this.#setStep(index, { status: 'done' });
    if (stopRun || index === this.scenario.steps.length - 1) return this.#finish();
    if (!this.#autoplay) return this.#set({ status: 'paused' });
    this.#set({ status: 'running' });
    const generation = this.#generation;
    this.#timer = this.#scheduler.setTimeout(
      () => {
        if (generation === this.#generation && this.#autoplay) this.#enter(index + 1);
      },
      readingDelayMs(this.scenario.steps[index]!.narration, this.#snapshot.speed),
    );
  }

  /** The index of the step whose end answers the prediction asked before step `index`. */
  #judgedAt(index: number): number {
    const id = this.scenario.steps[index]?.predict?.judgeAtStep;
    const at = id === undefined ? -1 : this.scenario.steps.findIndex((s) => s.id === id);
    return at >= 0 ? at : index;
  }

  #finish(): void {
    this.#checkExpectations(this.#observe());
    const expectations = this.#snapshot.expectations.map((e): ExpectationState => {
      if (e.status === 'upcoming') return { ...e, status: 'failed', saw: 'its step never ran' };
      if (e.status === 'checking')
        return { ...e, status: e.kind === 'throughout' ? 'passed' : 'failed' };
      return e;
    });
    const stepsOk = this.#snapshot.steps.every((s) => s.status === 'done');
    const status =
      stepsOk && expectations.every((e) => e.status === 'passed') ? 'passed' : 'failed';
    this.#autoplay = false;
    this.#set({ expectations, status });
  }

  #expectation(state: ExpectationState): Expectation {
    const found = this.scenario.steps[state.stepIndex]?.expect?.find((e) => e.id === state.id);
    if (!found) throw new Error(`scenario ${this.scenario.id} has no expectation ${state.id}`);
    return found;
  }

  #observe(): Observation {
    return this.#stage.observe(this.#snapshot.startedAt ?? this.#scheduler.now());
  }

  #setStep(index: number, state: StepState): void {
    this.#set({ steps: this.#snapshot.steps.map((s, i) => (i === index ? state : s)) });
  }

  #set(patch: Partial<RunSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...patch };
    this.#emit();
  }

  #emit(): void {
    this.#holdJobs(jobsHeldIn(this.#snapshot));
    this.#onchange?.(this.#snapshot, this.saved);
  }

  /** Tells the stage only about changes (a fresh run, e.g. after a reload, starts from "not held"). */
  #holdJobs(held: boolean): void {
    if (held === this.#jobsHeld) return;
    this.#jobsHeld = held;
    this.#stage.holdJobs(held);
  }
}

/**
 * Whether the server's jobs wait: between two steps of a run under way
 * (reading the narration, paused, or waiting for the learner's Step) and
 * while a prediction is asked. The server then moves only while a step is
 * acting or waiting for its moment, so a run makes its point at any pace:
 * a 4 s job cannot finish while the learner reads, and the answer to a
 * question is never on screen before it is asked.
 */
export function jobsHeldIn(snapshot: RunSnapshot): boolean {
  const { status, stepIndex, steps } = snapshot;
  if (status === 'predicting') return true;
  if (status !== 'running' && status !== 'paused') return false;
  return stepIndex >= 0 && steps[stepIndex]?.status === 'done';
}

function freshSnapshot(scenario: ScenarioDefinition, speed: Speed, drill: boolean): RunSnapshot {
  return {
    scenarioId: scenario.id,
    status: 'ready',
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

function safely<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}
