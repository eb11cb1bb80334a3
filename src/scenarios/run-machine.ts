/**
 * A scenario run as an XState v5 machine. Two regions:
 * - `pace`: `paused` or `playing` (Play, Pause, Step);
 * - `progress`: `restored` (a run saved before a reload, until `run.resume`),
 *   `ready`, `starting` (the stage is reset), `step` (`asking` the drill's
 *   question, `acting`, `watching` for the step's moment, `stopping`, and
 *   `between` steps), then `passed` or `failed`.
 * The server's jobs are held in the states tagged `jobsHeld` (`asking`,
 * `between`); the step's action has run in those tagged `actionDone`.
 * Restart leaves whatever runs (the stage reset, a step's action, the
 * watcher), so late answers of an abandoned run reach nothing.
 *
 * Pure: the stage is reached only through the actors the caller provides
 * (`resetStage`, `act`, `watchStage`), time through the actor's clock and
 * `now`, and what the stage shows arrives as `stage.observed` events.
 */
import { and, assign, fromCallback, fromPromise, sendTo, setup, stateIn } from 'xstate';
import { errorMessage } from '../protocol/error-message.ts';
import type { Observation } from './observation.ts';
import {
  checkExpectations,
  enterStep,
  finishRun,
  freshProgress,
  judgeStep,
  momentCame,
  runPassed,
  withStep,
  type RunProgress,
} from './run-judging.ts';
import { readingDelayMs, type SavedRun, type Speed } from './run-state.ts';
import type { ScenarioDefinition } from './scenario.ts';
import type { StageSetup } from './stage.ts';

export const DEFAULT_STEP_TIMEOUT_MS = 20_000;

export interface RunMachineInput {
  scenario: ScenarioDefinition;
  speed: Speed;
  drill: boolean;
  /** Epoch ms (simulated in tests): the run's start, from which the stage is observed. */
  now: () => number;
  /** A run saved before a reload: the machine waits in `restored` for `run.resume`. */
  saved?: SavedRun | undefined;
}

export interface RunMachineContext extends RunProgress {
  scenario: ScenarioDefinition;
  now: () => number;
  saved?: SavedRun | undefined;
}

export type RunMachineEvent =
  | { type: 'run.play' }
  | { type: 'run.pause' }
  | { type: 'run.step' }
  | { type: 'run.restart' }
  | { type: 'run.resume' }
  | { type: 'run.guess'; choice: string }
  | { type: 'run.speed'; speed: Speed }
  | { type: 'run.drill'; drill: boolean }
  /** What the stage shows now, pushed by `watchStage` when it changes or when asked to look. */
  | { type: 'stage.observed'; obs: Observation };

/** Input of the `act` actor: the step whose action to run. */
export interface ActInput {
  stepIndex: number;
  since: number;
  fast: boolean;
}

const notProvided = <TOutput, TInput>() =>
  fromPromise<TOutput, TInput>(() => Promise.reject(new Error('not provided')));

const stepOf = (context: RunMachineContext) => context.scenario.steps[context.stepIndex];
const observed = (event: RunMachineEvent): Observation => {
  if (event.type !== 'stage.observed') throw new Error(`no observation in ${event.type}`);
  return event.obs;
};
const saved = (context: RunMachineContext) => context.saved?.snapshot;

/** Step into the next step (or, past the last, nowhere: `entering` then concludes). */
const nextStep = {
  target: '#run.progress.step.entering',
  actions: 'enterNextStep',
} as const;

export const runMachine = setup({
  types: {} as { context: RunMachineContext; events: RunMachineEvent; input: RunMachineInput },
  actors: {
    resetStage: notProvided<void, StageSetup>(),
    act: notProvided<void, ActInput>(),
    watchStage: fromCallback<{ type: 'look' }, { since: number }>(() => {
      throw new Error('not provided');
    }),
  },
  delays: {
    readingDelay: ({ context }) => readingDelayMs(stepOf(context)?.narration ?? '', context.speed),
    stepDelay: ({ context }) => stepOf(context)?.delayMs ?? 0,
    stepTimeout: ({ context }) => stepOf(context)?.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS,
  },
  guards: {
    restored: ({ context }) => context.saved !== undefined,
    resumesPlaying: ({ context }) =>
      context.saved?.autoplay === true && !['passed', 'failed'].includes(saved(context)!.status),
    playing: stateIn('#run.pace.playing'),
    stepHasDelay: ({ context }) => (stepOf(context)?.delayMs ?? 0) > 0,
    asks: ({ context }) => context.drill && stepOf(context)?.predict !== undefined,
    pastLastStep: ({ context }) => stepOf(context) === undefined,
    momentCame: ({ context, event }) => momentCame(context.scenario, context, observed(event)),
    momentCameOnLast: ({ context, event }) =>
      context.stepIndex === context.scenario.steps.length - 1 &&
      momentCame(context.scenario, context, observed(event)),
    runPassed: ({ context }) => runPassed(context),
    savedIs: ({ context }, params: { status: string }) => saved(context)?.status === params.status,
    // No scenario on the in-memory store reloads on purpose: the learner did, and the worker holding the run's tasks went with the page.
    lostWithTheWorker: ({ context }) => (context.scenario.setup?.store ?? 'memory') === 'memory',
    savedBetweenSteps: ({ context }) => {
      const { stepIndex, steps } = saved(context)!;
      return stepIndex === -1 || steps[stepIndex]?.status === 'done';
    },
    savedActionDone: ({ context }) => context.saved?.actionDone === true,
  },
  actions: {
    enterNextStep: assign(({ context }) =>
      enterStep(context.scenario, context, context.stepIndex + 1),
    ),
    check: assign(({ context, event }) => ({
      expectations: checkExpectations(context.scenario, context.expectations, observed(event)),
    })),
    judge: assign(({ context, event }) => judgeStep(context.scenario, context, observed(event))),
    judgeAndFinish: assign(({ context, event }) =>
      finishRun(
        context.scenario,
        judgeStep(context.scenario, context, observed(event)),
        observed(event),
      ),
    ),
    finish: assign(({ context, event }) => finishRun(context.scenario, context, observed(event))),
    stopStep: assign(({ context }, params: { note: string; status: 'error' | 'timed-out' }) =>
      withStep(context, Math.max(0, context.stepIndex), {
        status: params.status,
        note: params.note,
      }),
    ),
    look: sendTo('watcher', { type: 'look' }),
  },
}).createMachine({
  id: 'run',
  type: 'parallel',
  context: ({ input }) => ({
    scenario: input.scenario,
    now: input.now,
    saved: input.saved,
    ...(input.saved
      ? (({ status: _, scenarioId: __, ...progress }) => progress)(input.saved.snapshot)
      : freshProgress(input.scenario, input.speed, input.drill)),
  }),
  on: {
    'run.speed': { actions: assign({ speed: ({ event }) => event.speed }) },
    // The drill applies from the next step.
    'run.drill': { actions: assign({ drill: ({ event }) => event.drill }) },
    'run.restart': {
      target: ['.pace.paused', '.progress.ready'],
      actions: assign(({ context }) => ({
        ...freshProgress(context.scenario, context.speed, context.drill),
        saved: undefined,
      })),
    },
  },
  states: {
    pace: {
      initial: 'choosing',
      states: {
        choosing: {
          always: [{ guard: 'resumesPlaying', target: 'playing' }, { target: 'paused' }],
        },
        paused: { on: { 'run.play': 'playing' } },
        // A step under way still finishes when paused: the server does not pause.
        playing: { on: { 'run.pause': 'paused', 'run.step': 'paused' } },
      },
    },
    progress: {
      initial: 'choosing',
      states: {
        choosing: { always: [{ guard: 'restored', target: 'restored' }, { target: 'ready' }] },
        restored: { on: { 'run.resume': 'resuming' } },
        // Carries a saved run on: waits for the step whose action ran, or goes on to the next.
        resuming: {
          always: [
            { guard: { type: 'savedIs', params: { status: 'passed' } }, target: 'passed' },
            { guard: { type: 'savedIs', params: { status: 'failed' } }, target: 'failed' },
            { guard: { type: 'savedIs', params: { status: 'ready' } }, target: 'ready' },
            {
              guard: 'lostWithTheWorker',
              target: 'step.stopping',
              actions: {
                type: 'stopStep',
                params: {
                  status: 'error',
                  note: "the page was reloaded mid-run, and this scenario's server kept its tasks in the worker's memory, which the reload ended; Restart to run it again",
                },
              },
            },
            { guard: { type: 'savedIs', params: { status: 'predicting' } }, target: 'step.asking' },
            // Playing by itself: on to the next step at once; paused: it waits for Play or Step.
            { guard: and(['savedBetweenSteps', 'playing']), ...nextStep },
            { guard: 'savedBetweenSteps', target: 'step.between' },
            { guard: 'savedActionDone', target: 'step.watching' },
            { target: 'step.acting' },
          ],
        },
        ready: { on: { 'run.play': 'starting', 'run.step': 'starting' } },
        starting: {
          invoke: {
            src: 'resetStage',
            input: ({ context }) => ({
              store: 'memory',
              declareTasks: true,
              ...context.scenario.setup,
            }),
            onDone: {
              target: 'step',
              actions: [assign({ startedAt: ({ context }) => context.now() }), 'enterNextStep'],
            },
            onError: {
              target: 'step.stopping',
              actions: [
                assign({ startedAt: ({ context }) => context.now(), stepIndex: 0 }),
                {
                  type: 'stopStep',
                  params: ({ event }) => ({
                    status: 'error' as const,
                    note: `the stage could not be set up: ${errorMessage(event.error)}`,
                  }),
                },
              ],
            },
          },
        },
        step: {
          invoke: {
            id: 'watcher',
            src: 'watchStage',
            input: ({ context }) => ({ since: context.startedAt ?? context.now() }),
          },
          initial: 'entering',
          states: {
            entering: {
              always: [
                { guard: 'pastLastStep', target: 'stopping' },
                { guard: 'asks', target: 'asking' },
                { target: 'acting' },
              ],
            },
            // The drill: the action waits for the guess, and the server's jobs stand still meanwhile.
            asking: {
              tags: ['jobsHeld', 'predicting'],
              on: {
                'run.guess': {
                  target: 'acting',
                  actions: assign({
                    predictions: ({ context, event }) =>
                      context.predictions.map((p) =>
                        p.stepIndex === context.stepIndex ? { ...p, guess: event.choice } : p,
                      ),
                  }),
                },
              },
            },
            acting: {
              initial: 'choosing',
              states: {
                choosing: {
                  always: [{ guard: 'stepHasDelay', target: 'delaying' }, { target: 'running' }],
                },
                // Real time the server needs before the action (e.g. until a TTL passes).
                delaying: { after: { stepDelay: 'running' } },
                // Marked done before it runs, so an action that reloads the page is not run again after the load.
                running: {
                  tags: ['actionDone'],
                  invoke: {
                    src: 'act',
                    input: ({ context }) => ({
                      stepIndex: context.stepIndex,
                      since: context.startedAt ?? context.now(),
                      fast: context.speed === 'max',
                    }),
                    onDone: '#run.progress.step.watching',
                    onError: {
                      target: '#run.progress.step.stopping',
                      actions: {
                        type: 'stopStep',
                        params: ({ event }) => ({
                          status: 'error' as const,
                          note: `the step failed: ${errorMessage(event.error)}`,
                        }),
                      },
                    },
                  },
                },
              },
            },
            watching: {
              tags: ['actionDone'],
              entry: [
                assign(({ context }) =>
                  withStep(context, context.stepIndex, { status: 'waiting' }),
                ),
                'look',
              ],
              on: {
                'stage.observed': [
                  {
                    guard: 'momentCameOnLast',
                    target: '#run.progress.concluding',
                    actions: 'judgeAndFinish',
                  },
                  { guard: 'momentCame', target: 'between', actions: 'judge' },
                  { actions: 'check' },
                ],
              },
              after: {
                stepTimeout: {
                  target: 'stopping',
                  actions: {
                    type: 'stopStep',
                    params: ({ context }) => ({
                      status: 'timed-out' as const,
                      note: `timed out after ${Math.round((stepOf(context)?.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS) / 1000)} s waiting for ${stepOf(context)?.until?.description ?? 'its expectations'}`,
                    }),
                  },
                },
              },
            },
            // The run stops here (an error, a timeout, or past the last step): judged on a fresh look.
            stopping: {
              entry: 'look',
              on: {
                'stage.observed': [
                  {
                    guard: 'pastLastStep',
                    target: '#run.progress.concluding',
                    actions: 'finish',
                  },
                  { target: '#run.progress.concluding', actions: 'judgeAndFinish' },
                ],
              },
            },
            // Judged; the next step waits for the narration to be read (playing) or for Play or Step.
            between: {
              tags: ['jobsHeld'],
              on: { 'run.play': nextStep, 'run.step': nextStep },
              after: { readingDelay: { guard: 'playing', ...nextStep } },
            },
          },
        },
        concluding: {
          always: [{ guard: 'runPassed', target: 'passed' }, { target: 'failed' }],
        },
        passed: {},
        failed: {},
      },
    },
  },
});
