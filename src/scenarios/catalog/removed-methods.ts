import { probeFails, taskEnds, wireShows } from '../expect.ts';
import { taskOf } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { probesAnswered, taskFinished, taskFollowed } from '../waits.ts';

export const removedMethods = defineScenario({
  id: 'removed-methods',
  title: 'No tasks/result, no tasks/list',
  summary:
    'There is no method that blocks until a task is done, and none that lists tasks: both answer -32601. The client polls tasks/get instead.',
  specIds: ['M1', 'T21', 'C7', 'T12'],
  steps: [
    {
      id: 'start',
      title: 'Start a task',
      narration: 'A slow_compute task (a few seconds), so there is a real taskId to ask about.',
      run: (stage, { fast }) => stage.callTool('slow_compute', { seconds: fast ? 1.5 : 4 }, true),
      until: taskFollowed('slow_compute'),
    },
    {
      id: 'probe',
      title: 'Ask for tasks/result and tasks/list',
      narration:
        'The 2025-11-25 task design had tasks/result (block until done) and tasks/list. We send both, declaring the extension, with the real taskId: SEP-2663 has tasks/result answer -32601, and tasks/list is now just an unknown method.',
      run: (stage, { obs }) => {
        const taskId = taskOf(obs, 'slow_compute')?.taskId ?? '';
        stage.probe('tasks/result', 'tasks/result', { taskId }, { declare: true });
        stage.probe('tasks/list', 'tasks/list', {}, { declare: true });
      },
      until: probesAnswered('tasks/result', 'tasks/list'),
      predict: {
        question: 'What does tasks/result answer?',
        choices: ['error -32601', 'the result, once the task is done', 'error -32602'],
        actual: (obs) => {
          const probe = obs.probes.find((p) => p.label === 'tasks/result');
          return probe?.state === 'error'
            ? `error ${probe.error?.code}`
            : probe?.state === 'result'
              ? 'the result, once the task is done'
              : 'no answer';
        },
      },
      expect: [
        probeFails(
          'no-result',
          'tasks/result answered -32601 method not found (M1, T21)',
          'tasks/result',
          -32601,
        ),
        probeFails(
          'no-list',
          'tasks/list answered -32601 method not found (T21)',
          'tasks/list',
          -32601,
        ),
      ],
    },
    {
      id: 'poll',
      title: 'Poll instead',
      narration:
        'The only way to the result is the poll loop the client was running all along: tasks/get until a terminal status, which carries the result.',
      until: taskFinished('slow_compute'),
      expect: [
        taskEnds('completed', 'slow_compute', 'completed'),
        wireShows(
          'by-poll',
          'the result arrived in a tasks/get answer (T10)',
          { direction: 'in', method: 'tasks/get', kind: 'result' },
          (row) => row.gist === 'completed',
        ),
      ],
    },
  ],
});
