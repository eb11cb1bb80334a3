/**
 * Checks of a task's life as the chosen tools run it: the handle's shape (T6, T7), a task that
 * can be read the moment its handle arrives (T8), a cancel acknowledged empty (T17), and a tool
 * error that ends `completed`, not `failed` (T11).
 */
import type { z } from 'zod';
import { Method } from '../protocol/constants.ts';
import { CreateTaskResultSchema, DetailedTaskSchema } from '../protocol/task.ts';
import {
  describeAnswer,
  statusOf,
  taskIdOf,
  type CheckContext,
  type Outcome,
  type ServerCheck,
} from './check-context.ts';
import { callForTask, noTask, settleOptionalTask } from './tool-task.ts';

/** A zod failure as the fields it names, e.g. `ttlMs: Invalid input: expected int`. */
function issuesOf(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join('.') || '(the result)'}: ${issue.message}`)
    .join('; ');
}

/** The shared task's id, or the outcome to give when there is none. */
async function sharedTask(context: CheckContext): Promise<string | Outcome> {
  const created = await context.createdTask();
  const taskId = taskIdOf(created);
  return taskId ?? noTask(context.options.tool, created);
}

export const createTaskResultShape: ServerCheck = {
  id: 'create-task-result-shape',
  rules: ['T6', 'T7'],
  title:
    'The task handle is a flat CreateTaskResult: resultType "task", one of five statuses, ISO dates, integer ttlMs and pollIntervalMs',
  async run(context) {
    const created = await context.createdTask();
    if (created.kind !== 'result' || created.result['resultType'] !== 'task')
      return noTask(context.options.tool, created);
    const parsed = CreateTaskResultSchema.safeParse(created.result);
    if (!parsed.success) return { verdict: 'fail', detail: issuesOf(parsed.error) };
    if ('task' in created.result)
      return {
        verdict: 'fail',
        detail: 'The handle also carries a `task` member: the 2025-11-25 wrapped shape.',
      };
    const { status, ttlMs, pollIntervalMs } = parsed.data;
    return {
      verdict: 'pass',
      detail: `status "${status}", ttlMs ${ttlMs}, pollIntervalMs ${pollIntervalMs ?? '(absent)'}.`,
    };
  },
};

export const getRightAfterCreate: ServerCheck = {
  id: 'get-right-after-create',
  rules: ['T8', 'T10'],
  title: 'A tasks/get sent the moment the handle arrives finds the task',
  async run(context) {
    const taskId = await sharedTask(context);
    if (typeof taskId !== 'string') return taskId;
    const answer = await context.send(Method.tasksGet, { taskId });
    if (answer.kind !== 'result')
      return {
        verdict: 'fail',
        detail: `The task was not durably created before its handle was sent: tasks/get got ${describeAnswer(answer)}.`,
      };
    const parsed = DetailedTaskSchema.safeParse(answer.result);
    if (!parsed.success) return { verdict: 'fail', detail: issuesOf(parsed.error) };
    if (parsed.data.taskId !== taskId)
      return { verdict: 'fail', detail: `tasks/get answered for task ${parsed.data.taskId}.` };
    if (answer.result['resultType'] !== 'complete')
      return {
        verdict: 'fail',
        detail: `tasks/get has resultType ${JSON.stringify(answer.result['resultType'])}, not "complete".`,
      };
    return { verdict: 'pass', detail: `Found at once, status "${parsed.data.status}".` };
  },
};

/** The members of an ack besides `resultType` and `_meta`. */
function extraMembers(result: Record<string, unknown>): string[] {
  return Object.keys(result).filter((key) => key !== 'resultType' && key !== '_meta');
}

export const cancelAcknowledged: ServerCheck = {
  id: 'cancel-acknowledged',
  rules: ['T17'],
  title: 'tasks/cancel is acknowledged with an empty result ({resultType: "complete"})',
  async run(context) {
    const { tool, arguments: args = {} } = context.options;
    // A task of its own, so the cancel cannot disturb the task the other checks read.
    const taskId = await callForTask(context, tool, args);
    if (typeof taskId !== 'string') return taskId;
    const answer = await context.send(Method.tasksCancel, { taskId });
    if (answer.kind !== 'result')
      return { verdict: 'fail', detail: `tasks/cancel got ${describeAnswer(answer)}.` };
    if (answer.result['resultType'] !== 'complete')
      return {
        verdict: 'fail',
        detail: `The ack has resultType ${JSON.stringify(answer.result['resultType'])}, not "complete".`,
      };
    const extra = extraMembers(answer.result);
    if (extra.length > 0)
      return {
        verdict: 'fail',
        detail: `The ack is not empty: it carries ${extra.join(', ')} (the ack proves nothing about the work, so it says nothing).`,
      };
    const after = await context.send(Method.tasksGet, { taskId });
    const status = statusOf(after);
    return {
      verdict: 'pass',
      detail: `Empty ack; a tasks/get right after reads ${status ? `"${status}"` : describeAnswer(after)} (any status is allowed: cancelling is cooperative).`,
    };
  },
};

export const isErrorCompletes: ServerCheck = {
  id: 'is-error-completes',
  rules: ['T11', 'M8'],
  needs: ['errorTool'],
  title: 'A tool that reports isError ends its task completed, not failed',
  async run(context) {
    const task = await settleOptionalTask(context, 'errorTool', (a) => {
      const status = statusOf(a);
      return status === 'completed' || status === 'failed' || status === 'cancelled';
    });
    if ('verdict' in task) return task;
    const { answer, settled } = task;
    const status = statusOf(answer);
    if (!settled)
      return {
        verdict: 'fail',
        detail: `The task did not end within ${context.settleMs} ms: last ${describeAnswer(answer)}.`,
      };
    if (status !== 'completed')
      return {
        verdict: 'fail',
        detail: `The task ended "${status}"; a tool error (isError) is a completed task, failed is for JSON-RPC errors.`,
      };
    const result = answer.kind === 'result' ? answer.result['result'] : undefined;
    const isError =
      typeof result === 'object' && result !== null && 'isError' in result && result.isError;
    if (isError !== true)
      return {
        verdict: 'fail',
        detail: `The task completed, but its result has no isError: true; is ${context.options.errorTool ?? 'the error tool'} a tool that reports an error?`,
      };
    return { verdict: 'pass', detail: 'Ended "completed" with result.isError true.' };
  },
};
