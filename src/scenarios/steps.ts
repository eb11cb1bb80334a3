/**
 * Step builders the scenarios share: the same lesson told on one server and
 * on a cluster (a server or a node killed mid-job, a poll answered working,
 * a task lost to -32602) is built once here, so its wording and its checks
 * stay alike wherever it is told.
 */
import { expectThat, taskEnds, wireNever, wireShows } from './expect.ts';
import type { FaultKind } from '../net/fault-log.ts';
import { errorCodeOf, taskOf, type Observation, type ScenarioWireRow } from './observation.ts';
import type { Expectation, Prediction, Step, Wait } from './scenario.ts';
import { taskFinished } from './waits.ts';

/** The drill's answer for a task that came back -32602. */
const GONE = 'gone (-32602)';

/** A job of `toolName` running `seconds` (up to 9) has saved a checkpoint, and has at least one second left. */
export function checkpointSaved(toolName: string, seconds: number): Wait {
  return {
    description: `a checkpoint saved (computing: 1 of ${seconds} s)`,
    holds: (obs) =>
      new RegExp(`computing: [1-${seconds - 2}] of ${seconds} s`).test(
        taskOf(obs, toolName)?.statusMessage ?? '',
      ),
  };
}

/** "How does the task end?": the newest `toolName` task's final state, or `gone (-32602)`. */
export function predictOutcome(toolName: string, choices: readonly string[]): Prediction {
  return {
    question: 'How does the task end?',
    choices,
    actual: (obs) => {
      const final = taskOf(obs, toolName)?.final;
      return final === 'gone' ? GONE : (final ?? 'still running');
    },
  };
}

/** From its step on, no tasks/get is answered -32602: `because` says why none may be. */
export function neverNotFound(because: string): Expectation {
  return wireNever(
    'never-lost',
    `no tasks/get answered -32602: ${because}`,
    { direction: 'in', method: 'tasks/get', kind: 'error' },
    (row) => errorCodeOf(row) === -32602,
  );
}

/** A tasks/get of the newest `toolName` task answered -32602, by a server (or node) that passes `by`. */
export function answeredNotFound(
  id: string,
  description: string,
  toolName: string,
  by: (row: ScenarioWireRow, obs: Observation) => boolean = () => true,
): Expectation {
  return wireShows(
    id,
    description,
    { direction: 'in', method: 'tasks/get', kind: 'error' },
    (row, obs) =>
      errorCodeOf(row) === -32602 && row.taskId === taskOf(obs, toolName)?.taskId && by(row, obs),
  );
}

/** A tasks/get answered `working`: the task is found, and running. */
export function pollSaysWorking(description: string): Expectation {
  return wireShows(
    'working',
    description,
    { direction: 'in', method: 'tasks/get', kind: 'result' },
    (row) => row.status === 'working',
  );
}

/** The fault log shows `kind`; saw: every event of its family (`server.`, `node.`). */
export function faultSeen(id: string, description: string, kind: FaultKind): Expectation {
  const family = `${kind.split('.')[0]}.`;
  return expectThat(id, description, (obs) => ({
    pass: obs.faults.some((f) => f.kind === kind),
    saw:
      obs.faults
        .filter((f) => f.kind.startsWith(family))
        .map((f) => f.kind.replace('.', ' '))
        .join(', ') || `no ${family.slice(0, -1)} events`,
  }));
}

/**
 * The step that kills whatever runs the newest `toolName` job (a server, or
 * one node) on a store that keeps it: the learner guesses how the task ends,
 * and it must end `completed` with no tasks/get ever answered -32602, plus
 * what `expect` adds (how it was carried on).
 */
export function killSurvived(options: {
  id?: string;
  title: string;
  narration: string;
  toolName: string;
  kill: NonNullable<Step['run']>;
  /** Why no -32602 may come: where the task lives. */
  because: string;
  expect?: readonly Expectation[];
}): Step {
  return {
    id: options.id ?? 'kill',
    title: options.title,
    narration: options.narration,
    run: options.kill,
    until: taskFinished(options.toolName),
    // A lease must run out before the job is taken over.
    timeoutMs: 30_000,
    predict: predictOutcome(options.toolName, ['completed', 'failed', GONE]),
    expect: [
      taskEnds('completed', options.toolName, 'completed'),
      ...(options.expect ?? []),
      neverNotFound(options.because),
    ],
  };
}
