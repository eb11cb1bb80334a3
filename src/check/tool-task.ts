/**
 * A task of a tool the user named: called with the extension declared, and, for the optional
 * tools (the input tool, the error tool), polled until it reaches the status a check needs.
 * When no task comes back, the outcome says why: a plain result is allowed (T7), so the check
 * is not applicable; an error is a failure.
 */
import { Method } from '../protocol/constants.ts';
import {
  describeAnswer,
  taskIdOf,
  type CheckContext,
  type OptionalTool,
  type Outcome,
} from './check-context.ts';
import type { Answer } from './raw-exchange.ts';

/** Why no task came back to a call that declared the extension: not applicable, or a failure. */
export function noTask(tool: string, answer: Answer): Outcome {
  if (answer.kind === 'result')
    return {
      verdict: 'not-applicable',
      detail: `${tool} answered ${describeAnswer(answer)} rather than a task, which T7 allows; name a tool the server runs as a task.`,
    };
  return {
    verdict: 'fail',
    detail: `tools/call ${tool} with the extension got ${describeAnswer(answer)}; check the tool's name and arguments.`,
  };
}

/** Calls `tool` for a task of its own: its id, or the outcome to give when there is none. */
export async function callForTask(
  context: CheckContext,
  tool: string,
  args: Record<string, unknown>,
): Promise<string | Outcome> {
  const created = await context.send(Method.toolsCall, { name: tool, arguments: args });
  return taskIdOf(created) ?? noTask(tool, created);
}

/** A task polled until a check's condition held (`settled`), or until it could wait no more. */
export interface SettledTask {
  taskId: string;
  /** The last `tasks/get` answer. */
  answer: Answer;
  settled: boolean;
}

/** Each optional tool: where its arguments are, and what to say when it was not named. */
const OPTIONAL_TOOLS: Record<
  OptionalTool,
  { args: 'inputArguments' | 'errorArguments'; unnamed: string }
> = {
  inputTool: {
    args: 'inputArguments',
    unnamed: 'No tool that asks for input was named (the input tool option).',
  },
  errorTool: {
    args: 'errorArguments',
    unnamed: 'No tool that reports isError was named (the error tool option).',
  },
};

/**
 * Creates a task of the optional tool `which` and polls it until `until` holds (or it ends, or
 * the check's settle time passes): not applicable when that tool was not named.
 */
export async function settleOptionalTask(
  context: CheckContext,
  which: OptionalTool,
  until: (answer: Answer) => boolean,
): Promise<SettledTask | Outcome> {
  const tool = context.options[which];
  const { args, unnamed } = OPTIONAL_TOOLS[which];
  if (tool === undefined) return { verdict: 'not-applicable', detail: unnamed };
  const taskId = await callForTask(context, tool, context.options[args] ?? {});
  if (typeof taskId !== 'string') return taskId;
  return { taskId, ...(await context.pollUntil(taskId, until)) };
}

/**
 * The shared task's id, for a check that only asks about a task (not about how it was made):
 * not applicable when the chosen tool made none.
 */
export async function taskToAskAbout(context: CheckContext): Promise<string | Outcome> {
  const created = await context.createdTask();
  return (
    taskIdOf(created) ?? {
      verdict: 'not-applicable',
      detail: `${context.options.tool} made no task to ask about (it answered ${describeAnswer(created)}).`,
    }
  );
}
