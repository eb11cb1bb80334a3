/**
 * A real task-machine actor on a simulated clock, its steps recorded by the
 * history's `HistoryRecorder`: what the history tests drive. Each tasks/get
 * is answered by the next function of `polls` (the last one repeats; a
 * thrown value rejects, as a lost request or a JSON-RPC error does).
 */
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { machineGraph } from '../../../src/machines/machine-graph.ts';
import { taskMachine } from '../../../src/machines/task-machine.ts';
import type { CreateTaskResult, DetailedTask, TaskStatus } from '../../../src/protocol/task.ts';
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

/** Follows task `t1` (created `working`, `created` overriding its fields), answered by `polls`. */
export function recordedRun(
  polls: ((at: number) => DetailedTask)[],
  created: Partial<CreateTaskResult> = {},
) {
  const clock = new SimulatedClock();
  let n = 0;
  const machine = taskMachine.provide({
    actors: {
      pollTask: fromPromise<DetailedTask, { taskId: string }>(async () => {
        const answer = polls[Math.min(n++, polls.length - 1)]!;
        return answer(clock.now());
      }),
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
  const recorder = new HistoryRecorder(actor, graph, 50);
  /** Moves the simulated clock on by `ms`, 1 ms at a time, letting promises settle between. */
  const advance = async (ms: number) => {
    for (let i = 0; i < ms; i++) {
      clock.increment(1);
      await flush();
    }
  };
  return { actor, graph, recorder, advance, steps: (): readonly HistoryStep[] => recorder.steps };
}
