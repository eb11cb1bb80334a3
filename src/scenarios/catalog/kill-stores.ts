import { taskEnds, taskIs } from '../expect.ts';
import { taskOf } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { answeredNotFound, checkpointSaved, faultSeen, killSurvived } from '../steps.ts';
import { polledAtLeast, taskFinished } from '../waits.ts';

export const killMemoryStore = defineScenario({
  id: 'kill-memory-store',
  title: 'Server killed, in-memory store',
  summary:
    'A server that kept its tasks in memory forgets them when it dies: the restarted server answers the old taskId with -32602, and the client gives up on it.',
  specIds: ['T13', 'C8', 'C7'],
  setup: { store: 'memory' },
  steps: [
    {
      id: 'start',
      title: 'Start a task',
      narration: "slow_compute (6 s) on a server that keeps its tasks in the worker's memory.",
      run: (stage) => stage.callTool('slow_compute', { seconds: 6 }, true),
      until: polledAtLeast('slow_compute', 1),
    },
    {
      id: 'kill',
      title: 'Kill the server, start a fresh one',
      narration:
        'The worker is terminated mid-job and a fresh one starts, with empty memory. The client reconnects and polls the same taskId.',
      run: (stage) => {
        stage.killServer();
        stage.restartServer();
      },
      until: taskFinished('slow_compute'),
      predict: {
        question: 'What does the fresh server answer to tasks/get for the old taskId?',
        choices: ['error -32602', 'working', 'completed'],
        actual: (obs) => {
          const task = taskOf(obs, 'slow_compute');
          return task?.final === 'gone' ? 'error -32602' : (task?.serverStatus ?? 'unknown');
        },
      },
      expect: [
        answeredNotFound(
          'not-found',
          'tasks/get for the old taskId answered -32602 (T13, C7)',
          'slow_compute',
        ),
        taskEnds('gone', 'slow_compute', 'gone'),
        faultSeen('restarted', 'a fresh server worker was started', 'server.started'),
      ],
    },
  ],
});

export const killDurableStore = defineScenario({
  id: 'kill-durable-store',
  title: 'Server killed, durable store',
  summary:
    "With tasks in IndexedDB, a fresh worker finds the killed worker's task and carries its job on from the last checkpoint: same taskId, completed.",
  specIds: ['T8', 'T12', 'C8', 'M5'],
  setup: { store: 'indexeddb' },
  steps: [
    {
      id: 'start',
      title: 'Start a task',
      narration:
        'slow_compute (4 s) on a server that keeps its tasks in IndexedDB; the job saves a checkpoint after every second.',
      run: (stage) => stage.callTool('slow_compute', { seconds: 4 }, true),
      until: checkpointSaved('slow_compute', 4),
    },
    killSurvived({
      title: 'Kill the server, start a fresh one',
      narration:
        'The worker dies mid-job. A fresh worker opens the same database, finds an unfinished task whose lease ran out, and takes the job over.',
      toolName: 'slow_compute',
      kill: (stage) => {
        stage.killServer();
        stage.restartServer();
      },
      because: 'the task survived its worker',
      expect: [
        taskIs(
          'resumed',
          "a fresh worker took the job over (resumes ≥ 1 in the task's _meta)",
          'slow_compute',
          (task) => task.resumes >= 1,
          (task) => `resumes ${task.resumes}`,
        ),
      ],
    }),
  ],
});
