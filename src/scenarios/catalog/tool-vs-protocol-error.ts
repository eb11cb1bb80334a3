import { taskEnds, taskIs } from '../expect.ts';
import { taskOf } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { taskFinished } from '../waits.ts';

export const toolVsProtocolError = defineScenario({
  id: 'tool-vs-protocol-error',
  title: 'Tool error against protocol error',
  summary:
    'A tool that ran and reported its own failure ends completed with isError; only a JSON-RPC error during execution ends a task failed.',
  specIds: ['T11', 'T10', 'T9'],
  steps: [
    {
      id: 'tool-error',
      title: 'A tool error',
      narration:
        'failing_job runs for a second, then returns a CallToolResult with isError: true ("the input file was empty"). The tool did run; it just failed.',
      run: (stage) => stage.callTool('failing_job', {}, true),
      until: taskFinished('failing_job'),
      timeoutMs: 15_000,
      predict: {
        question: 'What status does the task end with?',
        choices: ['completed', 'failed', 'cancelled'],
        actual: (obs) => taskOf(obs, 'failing_job')?.final ?? 'still running',
      },
      expect: [
        taskEnds('completed', 'failing_job', 'completed'),
        taskIs(
          'is-error',
          'its result has isError: true and no error object (T11)',
          'failing_job',
          (task) => task.result?.isError === true && task.error === undefined,
          (task) =>
            `isError ${String(task.result?.isError)}, error ${task.error ? task.error.code : 'none'}`,
        ),
      ],
    },
    {
      id: 'protocol-error',
      title: 'A protocol error',
      narration:
        'protocol_error_job fails below the tool: the worker running it hits an internal error. There is no tool result at all, so the task ends failed, carrying a JSON-RPC error object.',
      run: (stage) => stage.callTool('protocol_error_job', {}, true),
      until: taskFinished('protocol_error_job'),
      timeoutMs: 15_000,
      predict: {
        question: 'What status does this task end with?',
        choices: ['failed', 'completed', 'cancelled'],
        actual: (obs) => taskOf(obs, 'protocol_error_job')?.final ?? 'still running',
      },
      expect: [
        taskEnds('failed', 'protocol_error_job', 'failed'),
        taskIs(
          'error-object',
          'it carries error {code: -32603, message} and no result (T10, T11)',
          'protocol_error_job',
          (task) => task.error?.code === -32603 && task.result === undefined,
          (task) =>
            `error ${task.error ? `${task.error.code} ${task.error.message}` : 'none'}, result ${task.result ? 'present' : 'none'}`,
        ),
      ],
    },
  ],
});
