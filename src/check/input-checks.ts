/**
 * Checks of `tasks/update` (T14, T15) on a task of the input tool the user named: answers for
 * keys the task never asked are ignored, and a partial set of answers keeps it
 * `input_required` until the rest arrive.
 */
import { Method } from '../protocol/constants.ts';
import { ElicitationParamsSchema } from '../protocol/elicitation.ts';
import { InputRequestSchema, type InputRequest } from '../protocol/task.ts';
import {
  describeAnswer,
  statusOf,
  type CheckContext,
  type Outcome,
  type ServerCheck,
} from './check-context.ts';
import type { Answer } from './raw-exchange.ts';
import { settleOptionalTask } from './tool-task.ts';

/** The outstanding input requests of a `tasks/get` answer, by key. */
function inputRequestsOf(answer: Answer): Record<string, InputRequest> {
  if (answer.kind !== 'result') return {};
  const requests = answer.result['inputRequests'];
  if (typeof requests !== 'object' || requests === null) return {};
  const out: Record<string, InputRequest> = {};
  for (const [key, value] of Object.entries(requests)) {
    const parsed = InputRequestSchema.safeParse(value);
    if (parsed.success) out[key] = parsed.data;
  }
  return out;
}

/**
 * An answer a form-mode elicitation accepts: each field filled with a value of its type (the
 * first of an `enum`). Any other request is declined, which is an answer too.
 */
export function answerFor(request: InputRequest): Record<string, unknown> {
  const params = ElicitationParamsSchema.safeParse(request.params);
  if (request.method !== Method.elicitationCreate || !params.success) return { action: 'decline' };
  const content: Record<string, unknown> = {};
  for (const [field, property] of Object.entries(params.data.requestedSchema.properties)) {
    content[field] =
      property.enum?.[0] ??
      (property.type === 'boolean'
        ? true
        : property.type === 'string'
          ? 'checked by mcp-tasks-check'
          : 1);
  }
  return { action: 'accept', content };
}

/** The input tool's task, once it asks for input: its id and its requests, or why not. */
type InputTask = { taskId: string; requests: Record<string, InputRequest> } | { outcome: Outcome };

function inputTask(context: CheckContext): Promise<InputTask> {
  return context.shared('input-task', async (own): Promise<InputTask> => {
    const task = await settleOptionalTask(
      own,
      'inputTool',
      (a) => statusOf(a) === 'input_required' && Object.keys(inputRequestsOf(a)).length > 0,
    );
    if ('verdict' in task) return { outcome: task };
    if (!task.settled)
      return {
        outcome: {
          verdict: 'not-applicable',
          detail: `${own.options.inputTool ?? 'The input tool'}'s task never asked for input (last ${describeAnswer(task.answer)}).`,
        },
      };
    return { taskId: task.taskId, requests: inputRequestsOf(task.answer) };
  });
}

export const updateIgnoresUnknownKeys: ServerCheck = {
  id: 'update-ignores-unknown-keys',
  rules: ['T15'],
  needs: ['inputTool'],
  title: 'A tasks/update answering only a key the task never asked is acknowledged and ignored',
  async run(context) {
    const task = await inputTask(context);
    if ('outcome' in task) return task.outcome;
    const unknownKey = `never-asked-${Date.now().toString(36)}`;
    const ack = await context.send(Method.tasksUpdate, {
      taskId: task.taskId,
      inputResponses: { [unknownKey]: { action: 'accept', content: {} } },
    });
    if (ack.kind !== 'result' || ack.result['resultType'] !== 'complete')
      return {
        verdict: 'fail',
        detail: `An answer for an unknown key must be ignored, but tasks/update got ${describeAnswer(ack)}.`,
      };
    const after = await context.send(Method.tasksGet, { taskId: task.taskId });
    const missing = Object.keys(task.requests).filter((key) => !(key in inputRequestsOf(after)));
    if (statusOf(after) !== 'input_required' || missing.length > 0)
      return {
        verdict: 'fail',
        detail: `After answering only "${unknownKey}", tasks/get got ${describeAnswer(after)}${missing.length > 0 ? `, without ${missing.join(', ')}` : ''}.`,
      };
    return {
      verdict: 'pass',
      detail: `Acknowledged, and the task still asks for ${Object.keys(task.requests).join(', ')}.`,
    };
  },
};

export const updatePartialAnswers: ServerCheck = {
  id: 'update-partial-answers',
  rules: ['T15', 'T14'],
  needs: ['inputTool'],
  title: 'Answering one of two input keys keeps the task input_required, still asking the other',
  async run(context) {
    const task = await inputTask(context);
    if ('outcome' in task) return task.outcome;
    const [first, second] = Object.entries(task.requests);
    if (first === undefined || second === undefined)
      return {
        verdict: 'not-applicable',
        detail: `The task asks for one key at a time (${Object.keys(task.requests).join(', ')}); a partial answer needs two outstanding.`,
      };
    const [firstKey, firstRequest] = first;
    const ack = await context.send(Method.tasksUpdate, {
      taskId: task.taskId,
      inputResponses: { [firstKey]: answerFor(firstRequest) },
    });
    if (ack.kind !== 'result' || ack.result['resultType'] !== 'complete')
      return { verdict: 'fail', detail: `tasks/update got ${describeAnswer(ack)}.` };
    // Eventually consistent (T15): a later poll, not necessarily the next, drops the answered key.
    const { answer, settled } = await context.pollUntil(
      task.taskId,
      (a) => statusOf(a) !== 'input_required' || !(firstKey in inputRequestsOf(a)),
    );
    const outstanding = inputRequestsOf(answer);
    const rest = Object.keys(task.requests).filter((key) => key !== firstKey);
    if (!settled && statusOf(answer) === 'input_required')
      return {
        verdict: 'fail',
        detail: `"${firstKey}" was still asked ${context.settleMs} ms after it was answered.`,
      };
    if (statusOf(answer) !== 'input_required' || rest.some((key) => !(key in outstanding)))
      return {
        verdict: 'fail',
        detail: `With ${rest.join(', ')} unanswered, tasks/get got ${describeAnswer(answer)} asking for ${Object.keys(outstanding).join(', ') || 'nothing'}.`,
      };
    // Let the task finish rather than wait out its TTL.
    await context.send(Method.tasksUpdate, {
      taskId: task.taskId,
      inputResponses: Object.fromEntries(
        Object.entries(outstanding).map(([key, request]) => [key, answerFor(request)]),
      ),
    });
    return {
      verdict: 'pass',
      detail: `After "${firstKey}" alone: still input_required, asking ${rest.join(', ')}; then answered the rest.`,
    };
  },
};
