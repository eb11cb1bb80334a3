import { expectThat, taskIs } from '../expect.ts';
import {
  requestFor,
  resultOf,
  rowsWhere,
  taskOf,
  type Observation,
  type ScenarioWireRow,
} from '../observation.ts';
import { defineScenario } from '../scenario.ts';

/** A success, a tool error and a protocol error: three calls whose handles look alike. */
const TOOLS = ['protocol_error_job', 'failing_job', 'slow_compute'] as const;

/** The CreateTaskResult that answered the call of `toolName`. */
const handleOf = (obs: Observation, toolName: string): ScenarioWireRow | undefined =>
  rowsWhere(obs, { direction: 'in', method: 'tools/call', kind: 'result' }).find(
    (row) => row.resultType === 'task' && requestFor(obs, row)?.gist === toolName,
  );

/** What a handle says about the outcome: nothing, if it has no result, error or isError. */
const tellsOutcome = (row: ScenarioWireRow): boolean => {
  const result = resultOf(row) ?? {};
  return ['result', 'error', 'isError', 'content'].some((key) => Object.hasOwn(result, key));
};

export const createdNotSuccess = defineScenario({
  id: 'created-not-success',
  title: 'Created is not succeeded',
  summary:
    'A CreateTaskResult is a receipt: the handles of a call that will succeed, one whose tool will report an error and one that will fail look alike; only the final tasks/get says completed, completed with isError, or failed.',
  specIds: ['M8', 'T10', 'T11', 'T7'],
  steps: [
    {
      id: 'handles',
      title: 'Three calls, three receipts',
      narration:
        'protocol_error_job (it will hit a JSON-RPC error), failing_job (its tool will report an error) and slow_compute (it will succeed) are called at once. Each answers at once with a handle: resultType "task", a taskId, status working, and not a word about how it will end.',
      run: (stage) => {
        stage.callTool('protocol_error_job', {}, true);
        stage.callTool('failing_job', {}, true);
        stage.callTool('slow_compute', { seconds: 1 }, true);
      },
      until: {
        description: 'the three handles',
        holds: (obs) => TOOLS.every((tool) => handleOf(obs, tool) !== undefined),
      },
      expect: [
        expectThat(
          'alike',
          'the three handles look alike: resultType "task", the same status, no result and no error (M8, T7)',
          (obs) => {
            const handles = TOOLS.map((tool) => handleOf(obs, tool));
            const statuses = new Set(handles.map((row) => row?.status));
            const telling = handles.filter((row) => row !== undefined && tellsOutcome(row));
            return {
              pass:
                handles.every((row) => row !== undefined) &&
                statuses.size === 1 &&
                telling.length === 0,
              saw: handles
                .map((row, i) =>
                  row
                    ? `${TOOLS[i]}: task ${row.status ?? '?'}${tellsOutcome(row) ? ' with an outcome' : ''}`
                    : `${TOOLS[i]}: no handle`,
                )
                .join('; '),
            };
          },
        ),
      ],
    },
    {
      id: 'outcomes',
      title: 'Only the end tells',
      narration:
        'The client polls each one to its end. slow_compute ends completed with its result; failing_job ends completed too, with isError: true in its result (the tool ran and said it failed); protocol_error_job ends failed, carrying a JSON-RPC error. The outcome is read from the final tasks/get, never from creation.',
      until: {
        description: 'all three tasks to reach an outcome',
        holds: (obs) => TOOLS.every((tool) => taskOf(obs, tool)?.final !== undefined),
      },
      timeoutMs: 20_000,
      expect: [
        taskIs(
          'success',
          'slow_compute ends completed, its result without isError (T10)',
          'slow_compute',
          (task) => task.final === 'completed' && task.result?.isError !== true,
        ),
        taskIs(
          'tool-error',
          'failing_job ends completed, its result with isError: true (T11)',
          'failing_job',
          (task) => task.final === 'completed' && task.result?.isError === true,
          (task) =>
            `ended ${task.final ?? 'not yet'}, isError ${String(task.result?.isError ?? false)}`,
        ),
        taskIs(
          'protocol-error',
          'protocol_error_job ends failed, with a JSON-RPC error (T10, T11)',
          'protocol_error_job',
          (task) => task.final === 'failed' && typeof task.error?.code === 'number',
          (task) => `ended ${task.final ?? 'not yet'}, error ${String(task.error?.code ?? 'none')}`,
        ),
      ],
    },
  ],
});
