import { expectThat, taskEnds, wireNever, wireShows } from '../expect.ts';
import {
  describeRow,
  listed,
  paramsOf,
  requestFor,
  resultOf,
  rowsWhere,
  taskOf,
  type Observation,
  type ScenarioWireRow,
} from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { callAnswered, taskFinished, taskReported } from '../waits.ts';

/** The tools/call requests the page sent for `toolName`, oldest first. */
const callsOf = (obs: Observation, toolName: string): ScenarioWireRow[] =>
  rowsWhere(obs, { direction: 'out', kind: 'request', method: 'tools/call', gist: toolName });

/** Whether a tools/call answer row answers a call of `toolName`. */
const answersTool = (toolName: string) => (row: ScenarioWireRow, obs: Observation) =>
  requestFor(obs, row)?.gist === toolName;

/** The `inputRequests` keys of a result row. */
const inputKeys = (row: ScenarioWireRow): string[] => {
  const requests = resultOf(row)?.['inputRequests'];
  return typeof requests === 'object' && requests !== null ? Object.keys(requests) : [];
};

/** A call of `toolName` waiting for the learner's answer before anything starts (T16). */
const callAskedForInput = (toolName: string) => ({
  description: `the tools/call of ${toolName} to come back asking for input`,
  holds: (obs: Observation) =>
    obs.calls.some((c) => c.toolName === toolName && c.outcome === 'input'),
});

export const resultType = defineScenario({
  id: 'result-type',
  title: 'resultType: complete, task, input_required',
  summary:
    'Every result says what it is in resultType: "complete" (the answer itself), "task" (a handle to poll), or "input_required" (no task yet: answer and send the call again); a task\'s own status input_required is something else, answered with tasks/update.',
  specIds: ['C4', 'T16', 'M6', 'T7', 'T10', 'T14', 'T15'],
  steps: [
    {
      id: 'complete',
      title: 'resultType "complete"',
      narration:
        'greet is called declaring the extension. Declaring it lets the server answer with a task; it does not make it: greet is a plain tool, so the answer is its CallToolResult, marked resultType "complete". A client that declared the extension must be ready for either (T7).',
      run: (stage) => stage.callTool('greet', { name: 'Ada' }, true),
      until: callAnswered('greet', true),
      expect: [
        wireShows(
          'complete',
          'greet answered with resultType "complete" and its content: the result itself (C4)',
          { direction: 'in', method: 'tools/call', kind: 'result' },
          (row, obs) =>
            answersTool('greet')(row, obs) &&
            row.resultType === 'complete' &&
            Array.isArray(resultOf(row)?.['content']),
        ),
      ],
    },
    {
      id: 'task',
      title: 'resultType "task"',
      narration:
        'slow_compute, declaring the extension: the server answers at once with resultType "task", a taskId and a status, and no content. The tasks/get answers that follow are ordinary results, so they say resultType "complete", even while the task is still working (T10).',
      run: (stage, { fast }) => stage.callTool('slow_compute', { seconds: fast ? 1 : 2 }, true),
      until: taskFinished('slow_compute'),
      expect: [
        wireShows(
          'task',
          'slow_compute answered with resultType "task" and a taskId (C4, T7)',
          { direction: 'in', method: 'tools/call', kind: 'result' },
          (row, obs) =>
            answersTool('slow_compute')(row, obs) &&
            row.resultType === 'task' &&
            typeof resultOf(row)?.['taskId'] === 'string',
        ),
        expectThat(
          'polls-complete',
          'every tasks/get answer for it says resultType "complete", the working ones too (C4, T10)',
          (obs) => {
            const taskId = taskOf(obs, 'slow_compute')?.taskId;
            const polls = rowsWhere(obs, { direction: 'in', method: 'tasks/get', taskId });
            const other = polls.filter((row) => row.resultType !== 'complete');
            const working = polls.filter((row) => row.status === 'working').length;
            return {
              pass: polls.length > 0 && other.length === 0 && working > 0,
              saw:
                other.length > 0
                  ? `resultType ${String(other[0]?.resultType)} on a tasks/get answer`
                  : `${polls.length} tasks/get answers, ${working} of them working, all "complete"`,
            };
          },
        ),
      ],
    },
    {
      id: 'input-first',
      title: 'resultType "input_required": no task yet',
      narration:
        'test_tool_with_task needs a name before it can start. Its tools/call is answered resultType "input_required", with inputRequests.user_name: an interim result of this one request. No taskId, no task on the server, nothing to poll (T16).',
      run: (stage) => stage.callTool('test_tool_with_task', {}, true),
      until: callAskedForInput('test_tool_with_task'),
      predict: {
        question: 'test_tool_with_task must ask a name first. Its tools/call answers with...',
        choices: [
          'resultType "input_required", no task',
          'a task handle, in status input_required',
          'error -32021',
        ],
        actual: (obs) => {
          const row = rowsWhere(obs, { direction: 'in', method: 'tools/call' }).find((r) =>
            answersTool('test_tool_with_task')(r, obs),
          );
          if (!row) return 'no answer';
          if (row.kind === 'error') return row.gist;
          return row.resultType === 'task'
            ? 'a task handle, in status input_required'
            : `resultType "${String(row.resultType)}", no task`;
        },
      },
      expect: [
        wireShows(
          'interim',
          'the tools/call answered resultType "input_required" with inputRequests.user_name and no taskId (C4, T16)',
          { direction: 'in', method: 'tools/call', kind: 'result' },
          (row, obs) =>
            answersTool('test_tool_with_task')(row, obs) &&
            row.resultType === 'input_required' &&
            inputKeys(row).join() === 'user_name' &&
            resultOf(row)?.['taskId'] === undefined,
        ),
        expectThat('no-task', 'no test_tool_with_task task is followed yet (M6)', (obs) => {
          const task = taskOf(obs, 'test_tool_with_task');
          return { pass: task === undefined, saw: task ? `task ${task.taskId}` : 'no task' };
        }),
      ],
    },
    {
      id: 'retry',
      title: 'Answer by calling again',
      narration:
        'The learner gives the name Ada. The answer does not go in a tasks/update (there is no task to update): the client sends the same tools/call again, under a new JSON-RPC id, with inputResponses.user_name. Only this second round is answered with a task.',
      run: (stage) =>
        stage.answerCall('test_tool_with_task', 'user_name', {
          action: 'accept',
          content: { name: 'Ada' },
        }),
      until: taskFinished('test_tool_with_task'),
      expect: [
        expectThat(
          'resent',
          'a second tools/call, with a new id, carries inputResponses.user_name (T16)',
          (obs) => {
            const [first, second] = callsOf(obs, 'test_tool_with_task');
            const responses = second ? paramsOf(second)?.['inputResponses'] : undefined;
            const carries =
              typeof responses === 'object' &&
              responses !== null &&
              Object.hasOwn(responses, 'user_name');
            return {
              pass: first !== undefined && second?.id !== first.id && carries,
              saw: second
                ? `a second tools/call (id ${String(second.id)} after ${String(first?.id)}) ${carries ? 'with' : 'without'} inputResponses.user_name`
                : `${callsOf(obs, 'test_tool_with_task').length} tools/call of test_tool_with_task`,
            };
          },
        ),
        wireShows(
          'then-task',
          'the second round is answered with resultType "task" (C4, T16)',
          { direction: 'in', method: 'tools/call', kind: 'result' },
          (row, obs) => answersTool('test_tool_with_task')(row, obs) && row.resultType === 'task',
        ),
        wireNever(
          'no-update',
          'no tasks/update for test_tool_with_task: its name was never asked during the task (M6)',
          { direction: 'out', method: 'tasks/update' },
          (row, obs) => row.taskId === taskOf(obs, 'test_tool_with_task')?.taskId,
        ),
        taskEnds('greeted', 'test_tool_with_task', 'completed'),
      ],
    },
    {
      id: 'status-input',
      title: 'status "input_required": a task that waits',
      narration:
        'For contrast, confirm_delete: its tools/call is answered with a task at once, and it is the task that stops to ask. tasks/get says status "input_required" inside a resultType "complete" answer, and the answer goes in tasks/update; the call is never sent again (T14, T15).',
      run: async (stage, { waitFor }) => {
        stage.callTool('confirm_delete', { filename: 'report.txt' }, true);
        const asked = await waitFor(taskReported('confirm_delete', 'input_required'));
        const taskId = taskOf(asked, 'confirm_delete')?.taskId ?? '';
        stage.answer(taskId, 'confirm', { action: 'accept', content: { confirm: true } });
      },
      until: taskFinished('confirm_delete'),
      expect: [
        wireShows(
          'status',
          'a tasks/get answer with resultType "complete" and status "input_required" (C4, T14)',
          { direction: 'in', method: 'tasks/get', gist: 'input_required' },
          (row, obs) =>
            row.resultType === 'complete' && row.taskId === taskOf(obs, 'confirm_delete')?.taskId,
        ),
        expectThat(
          'by-update',
          'answered with one tasks/update, and confirm_delete called only once (M6, T15)',
          (obs) => {
            const taskId = taskOf(obs, 'confirm_delete')?.taskId;
            const updates = rowsWhere(obs, { direction: 'out', method: 'tasks/update', taskId });
            const calls = callsOf(obs, 'confirm_delete');
            return {
              pass: updates.length === 1 && calls.length === 1,
              saw: listed(
                [...calls, ...updates].map(describeRow),
                'no tools/call or tasks/update for confirm_delete',
              ),
            };
          },
        ),
        taskEnds('deleted', 'confirm_delete', 'completed'),
      ],
    },
  ],
});
