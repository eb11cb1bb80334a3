import { expectThat, taskEnds, taskIs, wireNever, wireShows } from '../expect.ts';
import { errorCodeOf, taskOf } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
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
        wireShows(
          'not-found',
          'tasks/get for the old taskId answered -32602 (T13, C7)',
          { direction: 'in', method: 'tasks/get', kind: 'error' },
          (row, obs) =>
            errorCodeOf(row) === -32602 && row.taskId === taskOf(obs, 'slow_compute')?.taskId,
        ),
        taskEnds('gone', 'slow_compute', 'gone'),
        expectThat('restarted', 'a fresh server worker was started', (obs) => ({
          pass: obs.faults.some((f) => f.kind === 'server.started'),
          saw:
            obs.faults
              .filter((f) => f.kind.startsWith('server.'))
              .map((f) => f.kind)
              .join(', ') || 'no server events',
        })),
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
      until: {
        description: 'a checkpoint saved (computing: 1 of 4 s)',
        holds: (obs) =>
          /computing: [1-3] of 4 s/.test(taskOf(obs, 'slow_compute')?.statusMessage ?? ''),
      },
    },
    {
      id: 'kill',
      title: 'Kill the server, start a fresh one',
      narration:
        'The worker dies mid-job. A fresh worker opens the same database, finds an unfinished task whose lease ran out, and takes the job over.',
      run: (stage) => {
        stage.killServer();
        stage.restartServer();
      },
      until: taskFinished('slow_compute'),
      timeoutMs: 30_000,
      predict: {
        question: 'How does the task end?',
        choices: ['completed', 'failed', 'gone (-32602)'],
        actual: (obs) => {
          const final = taskOf(obs, 'slow_compute')?.final;
          return final === 'gone' ? 'gone (-32602)' : (final ?? 'still running');
        },
      },
      expect: [
        taskEnds('completed', 'slow_compute', 'completed'),
        taskIs(
          'resumed',
          "a fresh worker took the job over (resumes ≥ 1 in the task's _meta)",
          'slow_compute',
          (task) => task.resumes >= 1,
          (task) => `resumes ${task.resumes}`,
        ),
        wireNever(
          'never-lost',
          'no tasks/get answered -32602: the task survived its worker',
          { direction: 'in', method: 'tasks/get', kind: 'error' },
          (row) => errorCodeOf(row) === -32602,
        ),
      ],
    },
  ],
});
