/**
 * Expectation builders: the few shapes the scenarios need, each saying in
 * words what it expected and what it saw. All read the observation only.
 */
import type { Expectation, Verdict } from './scenario.ts';
import {
  describeRow,
  describeTask,
  listed,
  rowsWhere,
  taskOf,
  type Observation,
  type ProbeView,
  type ScenarioWireRow,
  type TaskView,
} from './observation.ts';

type RowMatch = Parameters<typeof rowsWhere>[1];

/** The kind of row `match` looks for, in words: `tools/call result received`. */
function what(match: RowMatch): string {
  const way = match.direction === 'out' ? ' sent' : match.direction === 'in' ? ' received' : '';
  return `${match.method ?? 'message'}${match.kind ? ` ${match.kind}` : ''}${way}`;
}

/**
 * Eventually a wire row matches `match` (and `test`, if given). Saw: the rows
 * that matched `match` but not `test`, or that there were none.
 */
export function wireShows(
  id: string,
  description: string,
  match: RowMatch,
  test: (row: ScenarioWireRow, obs: Observation) => boolean = () => true,
): Expectation {
  return {
    id,
    description,
    check(obs) {
      const candidates = rowsWhere(obs, match);
      const hit = candidates.find((row) => test(row, obs));
      if (hit) return { pass: true, saw: describeRow(hit) };
      return {
        pass: false,
        saw:
          candidates.length === 0
            ? `no ${what(match)} among ${obs.wire.length} messages`
            : listed(candidates.map(describeRow).slice(-4)),
      };
    },
  };
}

/** From its step to the end of the run, no wire row matches. Saw: the first that did. */
export function wireNever(
  id: string,
  description: string,
  match: RowMatch,
  test: (row: ScenarioWireRow, obs: Observation) => boolean = () => true,
): Expectation {
  return {
    id,
    description,
    kind: 'throughout',
    check(obs) {
      const candidates = rowsWhere(obs, match);
      const hit = candidates.find((row) => test(row, obs));
      return hit
        ? { pass: false, saw: describeRow(hit) }
        : { pass: true, saw: `none matched, of ${candidates.length} × ${what(match)}` };
    },
  };
}

/** The newest task of `toolName` satisfies `test`; saw: the task in words, or `saw(task)`. */
export function taskIs(
  id: string,
  description: string,
  toolName: string,
  test: (task: TaskView, obs: Observation) => boolean,
  saw: (task: TaskView) => string = describeTask,
): Expectation {
  return {
    id,
    description,
    check(obs) {
      const task = taskOf(obs, toolName);
      if (!task)
        return { pass: false, saw: `no ${toolName} task followed (${obs.tasks.length} tasks)` };
      return { pass: test(task, obs), saw: saw(task) };
    },
  };
}

/** The newest task of `toolName` ended in one of `finals` (the machine's final state). */
export function taskEnds(id: string, toolName: string, ...finals: string[]): Expectation {
  return taskIs(
    id,
    `the ${toolName} task ends ${finals.join(' or ')}`,
    toolName,
    (task) => task.final !== undefined && finals.includes(task.final),
  );
}

/** The latest probe labelled `label` once answered, or why there is nothing to judge yet. */
function answeredProbe(obs: Observation, label: string): ProbeView | Verdict {
  const probe = obs.probes.filter((p) => p.label === label).at(-1);
  if (!probe) return { pass: false, saw: `the ${label} request was not sent` };
  if (probe.state === 'pending') return { pass: false, saw: `no answer yet to ${probe.method}` };
  return probe;
}

/** The probe labelled `label` was answered with JSON-RPC error `code`. */
export function probeFails(
  id: string,
  description: string,
  label: string,
  code: number,
): Expectation {
  return {
    id,
    description,
    check(obs) {
      const probe = answeredProbe(obs, label);
      if ('pass' in probe) return probe;
      if (probe.state === 'result')
        return { pass: false, saw: `a result: ${JSON.stringify(probe.result).slice(0, 120)}` };
      return {
        pass: probe.error?.code === code,
        saw: `error ${probe.error?.code ?? '(no code)'}: ${probe.error?.message ?? ''}`,
      };
    },
  };
}

/** The probe labelled `label` was answered with a result that passes `test`. */
export function probeAnswers(
  id: string,
  description: string,
  label: string,
  test: (result: Record<string, unknown>) => boolean,
  saw: (result: Record<string, unknown>) => string,
): Expectation {
  return {
    id,
    description,
    check(obs) {
      const probe = answeredProbe(obs, label);
      if ('pass' in probe) return probe;
      if (probe.state === 'error' || !probe.result)
        return {
          pass: false,
          saw: `error ${probe.error?.code ?? ''}: ${probe.error?.message ?? ''}`,
        };
      return { pass: test(probe.result), saw: saw(probe.result) };
    },
  };
}

/** Anything else, written out. */
export function expectThat(
  id: string,
  description: string,
  check: (obs: Observation) => Verdict,
  kind: Expectation['kind'] = 'eventually',
): Expectation {
  return { id, description, kind, check };
}
