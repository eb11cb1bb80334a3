/**
 * The state of one scenario run as plain data: what the panel draws, and
 * what the page saves so a run carries on after a real reload.
 */
import { z } from 'zod';

export type RunStatus =
  /** Not started: the stage is as the learner left it. */
  | 'ready'
  /** Playing by itself. */
  | 'running'
  /** Waiting for Play or Step (the current step, if any, still finishes). */
  | 'paused'
  /** The drill waits for a guess before the step runs. */
  | 'predicting'
  | 'passed'
  | 'failed';

/** How fast a run plays: a multiple of reading speed between steps, or no pauses at all. */
export type Speed = 'max' | 0.5 | 1 | 2;
export const SPEEDS: readonly Speed[] = [0.5, 1, 2, 'max'];

export type StepStatus = 'upcoming' | 'acting' | 'waiting' | 'done' | 'timed-out' | 'error';

export interface StepState {
  status: StepStatus;
  /** Why it stopped the run, for `timed-out` and `error`. */
  note?: string;
}

export type ExpectationStatus = 'upcoming' | 'checking' | 'passed' | 'failed';

export interface ExpectationState {
  id: string;
  stepIndex: number;
  description: string;
  kind: 'eventually' | 'throughout';
  status: ExpectationStatus;
  /** The last thing seen: why it is green, or the "saw Y" of a red one. */
  saw?: string;
}

export interface PredictionState {
  stepIndex: number;
  question: string;
  choices: readonly string[];
  guess?: string;
  actual?: string;
  correct?: boolean;
}

export interface RunSnapshot {
  scenarioId: string;
  status: RunStatus;
  /** The step shown: the one acting or waiting, or the last one judged. -1 before the first. */
  stepIndex: number;
  steps: readonly StepState[];
  expectations: readonly ExpectationState[];
  predictions: readonly PredictionState[];
  speed: Speed;
  drill: boolean;
  /** Epoch ms of the first step; the observation starts here. */
  startedAt?: number | undefined;
}

/** What survives a reload: the snapshot, and whether the current step's action already ran. */
export interface SavedRun {
  snapshot: RunSnapshot;
  actionDone: boolean;
  /** Whether it was playing by itself (it carries on playing). */
  autoplay: boolean;
}

const SpeedSchema = z.union([z.literal('max'), z.literal(0.5), z.literal(1), z.literal(2)]);

/**
 * A saved run as read back from storage: written by an earlier page, maybe
 * an older version of this code, so checked rather than cast.
 */
export const SavedRunSchema = z.object({
  snapshot: z.object({
    scenarioId: z.string(),
    status: z.enum(['ready', 'running', 'paused', 'predicting', 'passed', 'failed']),
    stepIndex: z.number().int().min(-1),
    steps: z.array(
      z.object({
        status: z.enum(['upcoming', 'acting', 'waiting', 'done', 'timed-out', 'error']),
        note: z.string().optional(),
      }),
    ),
    expectations: z.array(
      z.object({
        id: z.string(),
        stepIndex: z.number().int().min(0),
        description: z.string(),
        kind: z.enum(['eventually', 'throughout']),
        status: z.enum(['upcoming', 'checking', 'passed', 'failed']),
        saw: z.string().optional(),
      }),
    ),
    predictions: z.array(
      z.object({
        stepIndex: z.number().int().min(0),
        question: z.string(),
        choices: z.array(z.string()),
        guess: z.string().optional(),
        actual: z.string().optional(),
        correct: z.boolean().optional(),
      }),
    ),
    speed: SpeedSchema,
    drill: z.boolean(),
    startedAt: z.number().optional(),
  }),
  actionDone: z.boolean(),
  autoplay: z.boolean(),
}) satisfies z.ZodType<SavedRun>;

/** "Expected X; saw Y", the text of a red expectation. */
export function explain(state: ExpectationState): string {
  return `Expected ${state.description}; saw ${state.saw ?? 'nothing yet'}.`;
}

/** The drill's score so far. */
export function drillScore(predictions: readonly PredictionState[]): {
  right: number;
  answered: number;
} {
  const judged = predictions.filter((p) => p.correct !== undefined);
  return { right: judged.filter((p) => p.correct).length, answered: judged.length };
}

/** The pause between steps at a speed, long enough to read the narration. */
export function readingDelayMs(narration: string, speed: Speed): number {
  if (speed === 'max') return 0;
  return Math.min(12_000, 1500 + narration.length * 20) / speed;
}

export function parseSpeed(raw: string | null | undefined): Speed | undefined {
  if (raw === 'max') return 'max';
  const n = Number(raw);
  return SPEEDS.find((s) => s === n);
}

/**
 * The word beside step `index` in the steps list: `done`, `now`, `next` for
 * the one step that comes next only, `later` for the rest, and `not run`
 * once the run has ended before reaching them.
 */
export function stepWord(snapshot: Pick<RunSnapshot, 'steps' | 'status'>, index: number): string {
  const status = snapshot.steps[index]?.status;
  switch (status) {
    case 'done':
      return 'done';
    case 'acting':
    case 'waiting':
      return 'now';
    case 'timed-out':
      return 'timed out';
    case 'error':
      return 'error';
    case 'upcoming': {
      if (snapshot.status === 'passed' || snapshot.status === 'failed') return 'not run';
      const next = snapshot.steps.findIndex((step) => step.status === 'upcoming');
      return index === next ? 'next' : 'later';
    }
    default:
      return '';
  }
}
