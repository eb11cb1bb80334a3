import { wireNever, wireShows } from '../expect.ts';
import {
  callAnswerKind,
  declaresTasks,
  requestFor,
  type Observation,
  type ScenarioWireRow,
} from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { callAnswered, taskFollowed } from '../waits.ts';

/** A tools/call response whose request did (or did not) declare the extension. */
const answersCall = (declared: boolean) => (row: ScenarioWireRow, obs: Observation) => {
  const request = requestFor(obs, row);
  return request !== undefined && declaresTasks(request) === declared;
};

export const extensionOff = defineScenario({
  id: 'extension-off',
  title: 'The same tool with and without the extension',
  summary:
    'Tasks are an extension the client declares on every request: without it a tool answers synchronously, or with -32021 where the server requires a task for it, and never with a task.',
  specIds: ['M4', 'T1', 'T3', 'C7'],
  steps: [
    {
      id: 'sync',
      title: 'slow_compute without the extension',
      narration:
        'This tools/call does not declare io.modelcontextprotocol/tasks. slow_compute can run inline, so the server holds the request for the whole second and answers with the CallToolResult itself (resultType "complete").',
      run: (stage) => stage.callTool('slow_compute', { seconds: 1 }, false),
      until: callAnswered('slow_compute', false),
      predict: {
        question: 'Without the extension, slow_compute answers with...',
        choices: ['the slow_compute result itself', 'a task handle', 'error -32021'],
        actual: (obs) => callAnswerKind(obs, 'slow_compute'),
      },
      expect: [
        wireShows(
          'sync-result',
          'a synchronous CallToolResult (resultType "complete") to the undeclared call',
          { direction: 'in', method: 'tools/call', kind: 'result' },
          (row, obs) => row.gist === 'complete' && answersCall(false)(row, obs),
        ),
        wireNever(
          'never-task',
          'no task handle, ever, to a tools/call that did not declare the extension (T3)',
          { direction: 'in', method: 'tools/call', kind: 'result' },
          (row, obs) => row.gist.startsWith('task') && answersCall(false)(row, obs),
        ),
      ],
    },
    {
      id: 'required',
      title: 'deploy_service without the extension',
      narration:
        'deploy_service stops half-way for an approval, and this server chose to run it only as a task: nothing in the spec forbids running it inline, the server decides. Without the extension it must not make a task, so it refuses with -32021 and names the capability it needs in data.requiredCapabilities.',
      run: (stage) => stage.callTool('deploy_service', {}, false),
      until: callAnswered('deploy_service', false),
      predict: {
        question:
          'This server runs deploy_service only as a task. Without the extension it answers...',
        choices: ['error -32021', 'a task handle', 'the deploy_service result itself'],
        actual: (obs) => callAnswerKind(obs, 'deploy_service'),
      },
      expect: [
        wireShows(
          'refused',
          'error -32021 naming io.modelcontextprotocol/tasks in data.requiredCapabilities (T3, C7)',
          { direction: 'in', method: 'tools/call', kind: 'error' },
          (row) => {
            const error = (
              row.message as {
                error?: {
                  code?: number;
                  data?: { requiredCapabilities?: { extensions?: Record<string, unknown> } };
                };
              }
            ).error;
            return (
              error?.code === -32021 &&
              Object.hasOwn(
                error.data?.requiredCapabilities?.extensions ?? {},
                'io.modelcontextprotocol/tasks',
              )
            );
          },
        ),
      ],
    },
    {
      id: 'declared',
      title: 'The same slow_compute, declaring the extension',
      narration:
        'Switch the declaration on and call slow_compute again: now the server may, and does, answer at once with a task handle. Same tool, same server: the request decided.',
      run: (stage) => stage.callTool('slow_compute', { seconds: 1 }, true),
      until: taskFollowed('slow_compute'),
      expect: [
        wireShows(
          'task',
          'a task handle to the declared call (T1, T7)',
          { direction: 'in', method: 'tools/call', kind: 'result' },
          (row, obs) => row.gist.startsWith('task') && answersCall(true)(row, obs),
        ),
      ],
    },
  ],
});
