import { taskEnds, taskIs, wireShows } from '../expect.ts';
import { callAnswerKind, taskOf } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { pollSaysWorking } from '../steps.ts';
import { polledAtLeast, taskFinished, taskFollowed } from '../waits.ts';

export const happyPath = defineScenario({
  id: 'happy-path',
  title: 'The happy path',
  summary:
    'A tools/call comes back at once as a task handle; the client polls tasks/get by taskId until the task completes with its result.',
  specIds: ['T1', 'T7', 'T8', 'T10', 'T12', 'C4'],
  steps: [
    {
      id: 'call',
      title: 'Call a slow tool, declaring the extension',
      narration:
        'The client calls slow_compute (2 s of work) and declares io.modelcontextprotocol/tasks in this request\'s _meta. The server does not make it wait: it answers at once with resultType "task" and a taskId.',
      run: (stage) => stage.callTool('slow_compute', { seconds: 2 }, true),
      until: taskFollowed('slow_compute'),
      predict: {
        question: 'What does this tools/call answer with?',
        choices: ['a task handle', 'the slow_compute result itself', 'error -32021'],
        actual: (obs) => callAnswerKind(obs, 'slow_compute'),
      },

      expect: [
        wireShows(
          'handle',
          'a tools/call answered at once with resultType "task" and a taskId (T7)',
          { direction: 'in', method: 'tools/call', kind: 'result' },
          (row) => row.gist.startsWith('task') && typeof row.taskId === 'string',
        ),
      ],
    },
    {
      id: 'poll',
      title: 'Poll by taskId',
      narration:
        'The client now asks tasks/get {taskId} every pollIntervalMs. Each answer is the whole task as it stands: status working, a statusMessage, the TTL.',
      until: polledAtLeast('slow_compute', 2),
      expect: [
        wireShows(
          'same-id',
          'tasks/get asks for the taskId the handle gave (T10)',
          { direction: 'out', method: 'tasks/get' },
          (row, obs) => row.taskId === taskOf(obs, 'slow_compute')?.taskId,
        ),
        pollSaysWorking('a tasks/get answer says working (T6, T10)'),
      ],
    },
    {
      id: 'outcome',
      title: 'The outcome',
      narration:
        'When the job is done, the next tasks/get says completed and carries the full CallToolResult under result. The client stops polling.',
      until: taskFinished('slow_compute'),
      expect: [
        taskEnds('completed', 'slow_compute', 'completed'),
        taskIs(
          'result',
          'the completed task carries the tool\'s result: "Computed in 2 s" (T10)',
          'slow_compute',
          (task) => JSON.stringify(task.result ?? null).includes('Computed in 2 s'),
          (task) => `result ${JSON.stringify(task.result ?? null).slice(0, 100)}`,
        ),
      ],
    },
  ],
});
