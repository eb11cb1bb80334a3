/** The moments scenarios wait for most: a task exists, a task reached a state, a probe was answered. */
import { probeOf, rowsWhere, taskOf } from './observation.ts';
import type { Wait } from './scenario.ts';

/** A task of `toolName` is being followed (its CreateTaskResult arrived, T7). */
export function taskFollowed(toolName: string): Wait {
  return {
    description: `a ${toolName} task to be followed`,
    holds: (obs) => taskOf(obs, toolName) !== undefined,
  };
}

/** The client machine of the newest `toolName` task reached a final state. */
export function taskFinished(toolName: string): Wait {
  return {
    description: `the ${toolName} task to reach an outcome`,
    holds: (obs) => taskOf(obs, toolName)?.final !== undefined,
  };
}

/** The server reported `status` for the newest `toolName` task. */
export function taskReported(toolName: string, status: string): Wait {
  return {
    description: `the ${toolName} task to be reported ${status}`,
    holds: (obs) => taskOf(obs, toolName)?.serverStatus === status,
  };
}

/** The newest `toolName` task has been polled at least `n` times. */
export function polledAtLeast(toolName: string, n: number): Wait {
  return {
    description: `${n} answered tasks/get for the ${toolName} task`,
    holds: (obs) => {
      const task = taskOf(obs, toolName);
      return (
        task !== undefined &&
        rowsWhere(obs, { direction: 'in', method: 'tasks/get', taskId: task.taskId }).length >= n
      );
    },
  };
}

/** Every probe with these labels was answered (result or error). */
export function probesAnswered(...labels: string[]): Wait {
  return {
    description: `answers to ${labels.join(', ')}`,
    holds: (obs) =>
      labels.every(
        (label) => probeOf(obs, label) !== undefined && probeOf(obs, label)?.state !== 'pending',
      ),
  };
}

/** The tools/call of `toolName` that did not declare the extension has its answer. */
export function callAnswered(toolName: string, declared: boolean): Wait {
  return {
    description: `the answer to the tools/call of ${toolName} (${declared ? 'declaring' : 'not declaring'} the extension)`,
    holds: (obs) =>
      obs.calls.some(
        (c) => c.toolName === toolName && c.declared === declared && c.outcome !== 'pending',
      ),
  };
}
