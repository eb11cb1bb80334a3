/**
 * Checks of how the extension is negotiated per request (C5, T1, T3, T4): the server says it
 * has the extension, never hands a task to a client that did not declare it, and names what is
 * missing when a task is required.
 */
import { ErrorCode, Method, TASKS_EXTENSION } from '../protocol/constants.ts';
import { describeAnswer, type CheckContext, type ServerCheck } from './check-context.ts';
import { taskToAskAbout } from './tool-task.ts';
import type { Answer } from './raw-exchange.ts';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every tool the user named, each once, with its arguments. */
function toolsToCall(context: CheckContext): { tool: string; args: Record<string, unknown> }[] {
  const { options } = context;
  const named = [
    { tool: options.tool, args: options.arguments ?? {} },
    ...(options.inputTool ? [{ tool: options.inputTool, args: options.inputArguments ?? {} }] : []),
    ...(options.errorTool ? [{ tool: options.errorTool, args: options.errorArguments ?? {} }] : []),
  ];
  return named.filter((entry, index) => named.findIndex((e) => e.tool === entry.tool) === index);
}

export const discoverDeclaresExtension: ServerCheck = {
  id: 'discover-declares-extension',
  rules: ['C5', 'T1'],
  title: `server/discover lists ${TASKS_EXTENSION} among the server's extensions`,
  async run(context) {
    const answer = await context.send(Method.discover, {});
    if (answer.kind !== 'result')
      return { verdict: 'fail', detail: `server/discover got ${describeAnswer(answer)}.` };
    const capabilities = answer.result['capabilities'];
    const extensions = isObject(capabilities) ? capabilities['extensions'] : undefined;
    if (isObject(extensions) && isObject(extensions[TASKS_EXTENSION]))
      return { verdict: 'pass', detail: `capabilities.extensions names ${TASKS_EXTENSION}.` };
    return {
      verdict: 'fail',
      detail: `capabilities.extensions does not name ${TASKS_EXTENSION} (with an object), so a client cannot know the server runs tasks.`,
    };
  },
};

export const noTaskWithoutExtension: ServerCheck = {
  id: 'no-task-without-extension',
  rules: ['T3', 'M4'],
  title: 'A tools/call that does not declare the extension never gets a task',
  async run(context) {
    const lines: string[] = [];
    let tasks = 0;
    let unanswered = 0;
    for (const { tool, args } of toolsToCall(context)) {
      const answer = await context.callWithoutExtension(tool, args);
      if (answer.kind === 'result' && answer.result['resultType'] === 'task') tasks++;
      if (answer.kind === 'none') unanswered++;
      lines.push(`${tool}: ${describeAnswer(answer)}`);
    }
    const said = lines.join('; ');
    if (tasks > 0)
      return {
        verdict: 'fail',
        detail: `A task came back to a request without the extension (answer synchronously or with -32021 instead). ${said}.`,
      };
    if (unanswered > 0) return { verdict: 'fail', detail: `No answer to tell from: ${said}.` };
    return { verdict: 'pass', detail: `No task without the extension. ${said}.` };
  },
};

/** Why a -32021 error's `data` does not name the extension, or undefined when it does. */
function requiredCapabilitiesProblem(
  answer: Extract<Answer, { kind: 'error' }>,
): string | undefined {
  const data = answer.error.data;
  const required = isObject(data) ? data['requiredCapabilities'] : undefined;
  if (!isObject(required)) return 'data.requiredCapabilities is missing';
  const extensions = required['extensions'];
  if (!isObject(extensions) || !isObject(extensions[TASKS_EXTENSION]))
    return `data.requiredCapabilities.extensions does not name ${TASKS_EXTENSION}`;
  return undefined;
}

export const requiredCapabilityError: ServerCheck = {
  id: 'required-capability-error',
  rules: ['T3', 'C7'],
  title: `A tool that must run as a task answers -32021 naming ${TASKS_EXTENSION} in data.requiredCapabilities`,
  async run(context) {
    const refusals: string[] = [];
    const problems: string[] = [];
    for (const { tool, args } of toolsToCall(context)) {
      const answer = await context.callWithoutExtension(tool, args);
      // A task here is neither of T3's two answers: a tool that would not run synchronously
      // owed this client -32021.
      if (answer.kind === 'result' && answer.result['resultType'] === 'task')
        problems.push(`${tool}: a task instead of a synchronous answer or -32021`);
      if (
        answer.kind !== 'error' ||
        answer.error.code !== ErrorCode.MissingRequiredClientCapability
      )
        continue;
      refusals.push(tool);
      const problem = requiredCapabilitiesProblem(answer);
      if (problem) problems.push(`${tool}: ${problem}`);
    }
    if (problems.length > 0) return { verdict: 'fail', detail: `${problems.join('; ')}.` };
    if (refusals.length === 0)
      return {
        verdict: 'not-applicable',
        detail:
          'No tool checked answered -32021 without the extension, so none requires a task. Name a tool that cannot run synchronously to check this.',
      };
    return {
      verdict: 'pass',
      detail: `${refusals.join(', ')}: -32021 with data.requiredCapabilities.extensions naming ${TASKS_EXTENSION}.`,
    };
  },
};

export const taskMethodsNeedExtension: ServerCheck = {
  id: 'task-methods-need-extension',
  rules: ['T4'],
  title: 'A tasks/get that does not declare the extension is answered -32021',
  async run(context) {
    const taskId = await taskToAskAbout(context);
    if (typeof taskId !== 'string') return taskId;
    const answer = await context.send(Method.tasksGet, { taskId }, { tasks: false });
    if (answer.kind === 'error' && answer.error.code === ErrorCode.MissingRequiredClientCapability)
      return { verdict: 'pass', detail: 'Answered -32021.' };
    return { verdict: 'fail', detail: `Expected -32021, got ${describeAnswer(answer)}.` };
  },
};
