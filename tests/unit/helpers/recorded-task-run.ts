/**
 * A real task-machine actor on a simulated clock, its steps recorded by the
 * history's `HistoryRecorder`: what the history tests drive. Each tasks/get
 * is answered by the next function of `polls` (the last one repeats; a
 * thrown value rejects, as a lost request or a JSON-RPC error does). Tests
 * of the cursor, which need steps with chosen indexes or statuses, patch a
 * step the recorder really built (`historyStep`), never one written by hand.
 */
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { Timers } from '../../../src/clock/timers.ts';
import { machineGraph } from '../../../src/machines/machine-graph.ts';
import { pollsBy, taskMachine } from '../../../src/machines/task-machine.ts';
import type { CreateTaskResult, DetailedTask, TaskStatus } from '../../../src/protocol/task.ts';
import type { HistoryBudget } from '../../../src/ui/state/history-budget.ts';
import { HistoryRecorder, type HistoryStep } from '../../../src/ui/state/task-history.ts';
import { BASE, created as createdResult, report as serverReport } from './task-machine-driver.ts';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The task `t1` as the server reports it `at` ms after creation. */
export function report(
  status: TaskStatus,
  at: number,
  extra: Partial<DetailedTask> = {},
): DetailedTask {
  return serverReport(status, { taskId: 't1', ...extra }, at);
}

/** Follows task `t1` (created `working`, `created` overriding its fields), answered by `polls`; its history keeps `keep` (50 steps, or a budget's share). */
export function recordedRun(
  polls: ((at: number) => DetailedTask)[],
  created: Partial<CreateTaskResult> = {},
  keep: number | HistoryBudget = 50,
) {
  const clock = new SimulatedClock();
  let n = 0;
  const machine = taskMachine.provide({
    actions: {
      sendPoll: pollsBy(async () => {
        const answer = polls[Math.min(n++, polls.length - 1)]!;
        return answer(clock.now());
      }),
    },
    actors: {
      sendCancel: fromPromise<void, { taskId: string }>(async () => undefined),
      sendUpdate: fromPromise<void, { taskId: string; inputResponses: Record<string, unknown> }>(
        async () => undefined,
      ),
    },
  });
  const task = createdResult({ taskId: 't1', ...created });
  const actor = createActor(machine, {
    clock,
    input: { task, toolName: 'slow', now: () => BASE + clock.now() },
  });
  actor.start();
  const graph = machineGraph(actor.logic);
  const recorder = new HistoryRecorder(actor, graph, keep);
  /** Moves the simulated clock on by `ms`, 1 ms at a time, letting promises settle between. */
  const advance = async (ms: number) => {
    for (let i = 0; i < ms; i++) {
      clock.increment(1);
      await flush();
    }
  };
  return { actor, graph, recorder, advance, steps: (): readonly HistoryStep[] => recorder.steps };
}

/** The first step the recorder takes of task `t1` followed on `clock` (stamped with the clock's time when it tells one). */
export function firstStepOn(clock: Omit<Timers, 'now'>): HistoryStep {
  const actor = createActor(taskMachine, {
    clock,
    input: { task: createdResult({ taskId: 't1' }), toolName: 'slow', now: () => BASE },
  });
  actor.start();
  const recorder = new HistoryRecorder(actor, machineGraph(actor.logic));
  const first = recorder.steps[0]!;
  recorder.stop();
  actor.stop();
  return first;
}

let started: HistoryStep | undefined;

/** A step as the recorder builds it (the start of a run), with `patch` laid over it. */
export function historyStep(patch: Partial<HistoryStep> = {}): HistoryStep {
  started ??= firstStepOn(new SimulatedClock());
  return { ...started, ...patch };
}
