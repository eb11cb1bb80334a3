/**
 * Checks of what a server must refuse on the wire: routing headers that are missing or
 * disagree with the body (T19, C7), a taskId it never made (T13), and the 2025-11-25 methods
 * that no longer exist (T21).
 */
import { ErrorCode, Method } from '../protocol/constants.ts';
import { describeAnswer, taskIdOf, type CheckContext, type ServerCheck } from './check-context.ts';
import { taskToAskAbout } from './tool-task.ts';
import type { Answer, RequestShape } from './raw-exchange.ts';

/** An id no server made: long and random, so it cannot be a real task of anyone's. */
function unknownTaskId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `no-such-task-${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

function isError(answer: Answer, code: number): boolean {
  return answer.kind === 'error' && answer.error.code === code;
}

/** A `tasks/get` of the shared task with its headers bent by `headers`, which must get -32020. */
function headerCheck(
  id: string,
  title: string,
  headers: (taskId: string) => RequestShape['headers'],
  broken: string,
): ServerCheck {
  return {
    id,
    rules: ['T19', 'C7'],
    title,
    async run(context: CheckContext) {
      const taskId = await taskToAskAbout(context);
      if (typeof taskId !== 'string') return taskId;
      const answer = await context.send(Method.tasksGet, { taskId }, { headers: headers(taskId) });
      if (isError(answer, ErrorCode.HeaderMismatch))
        return { verdict: 'pass', detail: `${broken}: answered -32020.` };
      return {
        verdict: 'fail',
        detail: `${broken}: expected -32020, got ${describeAnswer(answer)}. A balancer routing by Mcp-Name would send such a request to the wrong node.`,
      };
    },
  };
}

export const mcpNameMissing = headerCheck(
  'mcp-name-missing',
  'A tasks/get without the Mcp-Name header is refused with -32020',
  () => ({ 'mcp-name': undefined }),
  'Mcp-Name left out',
);

export const mcpNameWrong = headerCheck(
  'mcp-name-wrong',
  'A tasks/get whose Mcp-Name names another task is refused with -32020',
  () => ({ 'mcp-name': unknownTaskId() }),
  'Mcp-Name naming another taskId',
);

export const mcpMethodWrong = headerCheck(
  'mcp-method-wrong',
  'A tasks/get whose Mcp-Method header says tools/list is refused with -32020',
  () => ({ 'mcp-method': Method.toolsList }),
  'Mcp-Method disagreeing with the body',
);

export const unknownTaskIdRefused: ServerCheck = {
  id: 'unknown-task-id',
  rules: ['T13'],
  title: 'A tasks/get for a taskId the server never made is answered -32602',
  async run(context) {
    const taskId = unknownTaskId();
    const get = await context.send(Method.tasksGet, { taskId });
    if (!isError(get, ErrorCode.InvalidParams))
      return { verdict: 'fail', detail: `tasks/get got ${describeAnswer(get)}, not -32602.` };
    // update and cancel SHOULD answer alike: told in the detail, not failed on.
    const update = await context.send(Method.tasksUpdate, { taskId, inputResponses: {} });
    const cancel = await context.send(Method.tasksCancel, { taskId });
    const should = [
      ['tasks/update', update],
      ['tasks/cancel', cancel],
    ] as const;
    const differing = should
      .filter(([, answer]) => !isError(answer, ErrorCode.InvalidParams))
      .map(([method, answer]) => `${method} got ${describeAnswer(answer)}`);
    return {
      verdict: 'pass',
      detail:
        differing.length === 0
          ? 'tasks/get, tasks/update and tasks/cancel: -32602.'
          : `tasks/get: -32602. Not -32602 (a SHOULD, so no failure): ${differing.join('; ')}.`,
    };
  },
};

/** A 2025-11-25 method that must be unknown now (T21). */
function goneMethod(
  id: string,
  method: string,
  rules: readonly string[],
  params: (taskId: string | undefined) => Record<string, unknown>,
): ServerCheck {
  return {
    id,
    rules,
    title: `${method} (2025-11-25 only) is answered -32601, method not found`,
    async run(context) {
      const taskId =
        method === Method.tasksResult ? taskIdOf(await context.createdTask()) : undefined;
      const answer = await context.send(method, params(taskId), {
        headers: taskId === undefined ? {} : { 'mcp-name': taskId },
      });
      if (isError(answer, ErrorCode.MethodNotFound))
        return { verdict: 'pass', detail: 'Answered -32601.' };
      return { verdict: 'fail', detail: `Expected -32601, got ${describeAnswer(answer)}.` };
    },
  };
}

export const noTasksResult = goneMethod(
  'no-tasks-result',
  Method.tasksResult,
  ['T21', 'M1'],
  (taskId) => ({ taskId: taskId ?? unknownTaskId() }),
);

export const noTasksList = goneMethod('no-tasks-list', Method.tasksList, ['T21'], () => ({}));
