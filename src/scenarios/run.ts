/**
 * `ScenarioRun`: a scenario's run machine (`run-machine.ts`) started against
 * a stage. It provides the machine's actors (reset the stage, run a step's
 * action, push what the stage shows), reads the machine's state back as the
 * plain `RunSnapshot` the panel draws and the `SavedRun` a reload carries
 * on from, and holds the server's jobs while the machine is in a state
 * tagged `jobsHeld`. Pure: time comes from a Scheduler, the page from a
 * ScenarioStage.
 */
import { createActor, fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import { realScheduler, type Scheduler } from '../net/scheduler.ts';
import type { Observation } from './observation.ts';
import { safely } from './run-judging.ts';
import { runMachine, type ActInput } from './run-machine.ts';
import type { RunSnapshot, RunStatus, SavedRun, Speed } from './run-state.ts';
import type { ScenarioDefinition, Wait } from './scenario.ts';
import type { ScenarioStage } from './stage.ts';

export { DEFAULT_STEP_TIMEOUT_MS } from './run-machine.ts';
/** How often a stage that cannot push its changes is looked at. */
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

type RunMachineSnapshot = SnapshotFrom<typeof runMachine>;

/** The status the panel shows, read from the machine's state. */
export function runStatusOf(state: RunMachineSnapshot): RunStatus {
  const { progress, pace } = state.value as { progress: unknown; pace: unknown };
  if (progress === 'restored') return state.context.saved?.snapshot.status ?? 'ready';
  if (progress === 'ready' || progress === 'passed' || progress === 'failed') return progress;
  if (state.hasTag('predicting')) return 'predicting';
  return pace === 'playing' ? 'running' : 'paused';
}

export class ScenarioRun {
  readonly scenario: ScenarioDefinition;
  readonly #stage: ScenarioStage;
  readonly #scheduler: Scheduler;
  readonly #onchange: RunOptions['onchange'];
  readonly #actor;
  #snapshot: RunSnapshot;
  #saved: SavedRun;
  /** Whether this run has told the stage to hold the server's jobs. */
  #jobsHeld = false;
  readonly #listeners = new Set<() => void>();

  constructor(scenario: ScenarioDefinition, stage: ScenarioStage, options: RunOptions = {}) {
    this.scenario = scenario;
    this.#stage = stage;
    const scheduler = (this.#scheduler = options.scheduler ?? stage.clock ?? realScheduler);
    this.#onchange = options.onchange;
    const saved =
      options.saved &&
      options.saved.snapshot.scenarioId === scenario.id &&
      options.saved.snapshot.steps.length === scenario.steps.length
        ? options.saved
        : undefined;
    const machine = runMachine.provide({
      actors: {
        resetStage: fromPromise(({ input }) => stage.reset(input)),
        act: fromPromise<void, ActInput>(({ input, signal }) => this.#act(input, signal)),
        watchStage: fromCallback<{ type: 'look' }, { since: number }>(
          ({ sendBack, receive, input }) => {
            const look = () =>
              sendBack({ type: 'stage.observed', obs: stage.observe(input.since) });
            receive(look);
            return watch(stage, scheduler, look);
          },
        ),
      },
    });
    this.#actor = createActor(machine, {
      clock: scheduler,
      input: {
        scenario,
        speed: options.speed ?? 1,
        drill: options.drill ?? false,
        now: () => scheduler.now(),
        saved,
      },
    });
    [this.#snapshot, this.#saved] = this.#read(this.#actor.getSnapshot());
    this.#actor.subscribe((state) => this.#update(state));
    this.#actor.start();
  }

  get snapshot(): RunSnapshot {
    return this.#snapshot;
  }

  /** What to save so that a reload carries on. */
  get saved(): SavedRun {
    return this.#saved;
  }

  /** Whether the server's jobs wait now: between two steps and while a drill question is asked. */
  get jobsHeld(): boolean {
    return this.#jobsHeld;
  }

  /** Calls `listener` after every change of `snapshot`, `saved` or `jobsHeld`; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Plays by itself from where it is. */
  play(): void {
    this.#actor.send({ type: 'run.play' });
  }

  /** Stops after the current step (a step under way still finishes: the server does not pause). */
  pause(): void {
    this.#actor.send({ type: 'run.pause' });
  }

  /** Runs the next step, then pauses. */
  step(): void {
    this.#actor.send({ type: 'run.step' });
  }

  /** Back to the start; the stage is reset when it plays again. */
  restart(): void {
    this.#actor.send({ type: 'run.restart' });
  }

  setSpeed(speed: Speed): void {
    this.#actor.send({ type: 'run.speed', speed });
  }

  /** The drill on or off; it applies from the next step. */
  setDrill(drill: boolean): void {
    this.#actor.send({ type: 'run.drill', drill });
  }

  /** The learner's guess for the step waiting in `predicting`; the step then runs. */
  guess(choice: string): void {
    this.#actor.send({ type: 'run.guess', choice });
  }

  /** Carries a saved run on (after a reload): waits for the step whose action ran, or goes on to the next. */
  resume(): void {
    this.#actor.send({ type: 'run.resume' });
  }

  /** Stops everything the run started (the page is going away, or another scenario opens). */
  dispose(): void {
    this.#actor.stop();
    if (this.#holdJobs(false)) for (const listener of [...this.#listeners]) listener();
  }

  async #act(input: ActInput, signal: AbortSignal): Promise<void> {
    await this.scenario.steps[input.stepIndex]?.run?.(this.#stage, {
      obs: this.#stage.observe(input.since),
      waitFor: (wait, timeoutMs) =>
        waitUntil(this.#stage, this.#scheduler, input.since, wait, timeoutMs ?? 10_000, signal),
      fast: input.fast,
    });
  }

  #read(state: RunMachineSnapshot): [RunSnapshot, SavedRun] {
    const { stepIndex, steps, expectations, predictions, speed, drill, startedAt } = state.context;
    const status = runStatusOf(state);
    const previous = this.#snapshot as RunSnapshot | undefined;
    const next: RunSnapshot = {
      scenarioId: this.scenario.id,
      status,
      stepIndex,
      steps,
      expectations,
      predictions,
      speed,
      drill,
      startedAt,
    };
    const same =
      previous !== undefined &&
      (Object.keys(next) as (keyof RunSnapshot)[]).every((key) => next[key] === previous[key]);
    const snapshot = same ? previous : next;
    const restored = state.matches({ progress: 'restored' }) ? state.context.saved : undefined;
    const actionDone = restored ? restored.actionDone : state.hasTag('actionDone');
    const autoplay = restored
      ? restored.autoplay
      : state.matches({ pace: 'playing' }) && status !== 'passed' && status !== 'failed';
    const previousSaved = this.#saved as SavedRun | undefined;
    const savedRun =
      previousSaved?.snapshot === snapshot &&
      previousSaved.actionDone === actionDone &&
      previousSaved.autoplay === autoplay
        ? previousSaved
        : { snapshot, actionDone, autoplay };
    return [snapshot, savedRun];
  }

  #update(state: RunMachineSnapshot): void {
    const [snapshot, saved] = this.#read(state);
    const heldChanged = this.#holdJobs(state.hasTag('jobsHeld'));
    if (snapshot === this.#snapshot && saved === this.#saved && !heldChanged) return;
    this.#snapshot = snapshot;
    this.#saved = saved;
    this.#onchange?.(snapshot, saved);
    for (const listener of [...this.#listeners]) listener();
  }

  /** Tells the stage only about changes (a fresh run, e.g. after a reload, starts from "not held"). */
  #holdJobs(held: boolean): boolean {
    if (held === this.#jobsHeld) return false;
    this.#jobsHeld = held;
    this.#stage.holdJobs(held);
    return true;
  }
}

/** Calls `look` whenever the stage says it changed, or every {@link TICK_MS} if it cannot say; returns the stop. */
function watch(stage: ScenarioStage, scheduler: Scheduler, look: () => void): () => void {
  if (stage.watch) return stage.watch(look);
  let timer: unknown;
  const tick = () => {
    look();
    timer = scheduler.setTimeout(tick, TICK_MS);
  };
  timer = scheduler.setTimeout(tick, TICK_MS);
  return () => scheduler.clearTimeout(timer);
}

/** Resolves once `wait` holds on the stage; rejects after `timeoutMs`, or when the run stops. */
function waitUntil(
  stage: ScenarioStage,
  scheduler: Scheduler,
  since: number,
  wait: Wait,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Observation> {
  return new Promise((resolve, reject) => {
    let stopWatching = () => {};
    const settle = (done: () => void) => {
      stopWatching();
      scheduler.clearTimeout(timer);
      signal.removeEventListener('abort', abandon);
      done();
    };
    const abandon = () => settle(() => reject(new Error('run stopped')));
    const timer = scheduler.setTimeout(
      () =>
        settle(() =>
          reject(
            new Error(
              `timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${wait.description}`,
            ),
          ),
        ),
      timeoutMs,
    );
    const look = () => {
      const obs = stage.observe(since);
      if (safely(() => wait.holds(obs), false)) settle(() => resolve(obs));
    };
    signal.addEventListener('abort', abandon);
    stopWatching = watch(stage, scheduler, look);
    look();
  });
}
