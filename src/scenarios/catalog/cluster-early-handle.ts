import { expectThat, taskEnds, taskIs, wireShows } from '../expect.ts';
import {
  createdOn,
  errorCodeOf,
  rowsWhere,
  taskOf,
  type Observation,
  type TaskView,
} from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import type { Wait } from '../scenario.ts';
import { taskFinished } from '../waits.ts';

/** The node the T8 toggle is turned on for; the scenario's setup sends its first request there. */
const EARLY_NODE = 1;

/** The second slow_compute task of the run: the one started with the toggle off again. */
const secondTask = (obs: Observation): TaskView | undefined =>
  obs.tasks.filter((t) => t.toolName === 'slow_compute')[1];

const secondTaskFinished: Wait = {
  description: 'the second slow_compute task to reach an outcome',
  holds: (obs) => secondTask(obs)?.final !== undefined,
};

/** The answers to the tasks/get of `task`, oldest first. */
const pollsOf = (obs: Observation, task: TaskView | undefined) =>
  rowsWhere(obs, { direction: 'in', method: 'tasks/get', taskId: task?.taskId });

export const clusterEarlyHandle = defineScenario({
  id: 'cluster-early-handle',
  title: 'Cluster: a handle returned before the store has it',
  summary:
    'A node that answers tools/call before its store write lands breaks T8: the first tasks/get, served by another node, answers -32602 for a task that is about to exist, and the client gives it up. Stored first, the same flow completes.',
  specIds: ['T8', 'T19', 'C7'],
  setup: { store: 'indexeddb', cluster: { nodes: 2, policy: 'round-robin' } },
  steps: [
    {
      id: 'early',
      title: 'Node 1 answers before it writes',
      narration:
        'Two nodes on one shared store behind round-robin. Node 1 is switched to the bug on purpose (the Cluster panel\'s "Early handle"): it returns the task handle at once and writes the task to the store 3 s later. The tools/call goes to node 1; the first poll, to node 2.',
      run: (stage) => {
        stage.setEarlyHandle(EARLY_NODE, true);
        stage.callTool('slow_compute', { seconds: 2 }, true);
      },
      until: taskFinished('slow_compute'),
      predict: {
        question: 'Node 2 reads the shared store for the first tasks/get. What does it answer?',
        choices: ['-32602: the store does not have the task yet', 'working'],
        actual: (obs) => {
          const first = pollsOf(obs, taskOf(obs, 'slow_compute'))[0];
          if (!first) return 'no answer';
          return errorCodeOf(first) === -32602
            ? '-32602: the store does not have the task yet'
            : first.gist;
        },
      },
      expect: [
        wireShows(
          'handle',
          'node 1 answered the tools/call with a task handle, before storing the task',
          { direction: 'in', method: 'tools/call', kind: 'result' },
          (row) => row.node === EARLY_NODE && row.gist.startsWith('task'),
        ),
        expectThat(
          'not-yet',
          'the first tasks/get, served by another node, answered -32602 (T8 broken: the handle came before the write)',
          (obs) => {
            const first = pollsOf(obs, taskOf(obs, 'slow_compute'))[0];
            return {
              pass:
                first !== undefined &&
                errorCodeOf(first) === -32602 &&
                first.node !== undefined &&
                first.node !== createdOn(obs, 'slow_compute'),
              saw: first
                ? `node ${first.node ?? '?'} answered ${first.gist || first.kind}`
                : 'no tasks/get answered yet',
            };
          },
        ),
        taskEnds('gone', 'slow_compute', 'gone'),
      ],
    },
    {
      id: 'stored-first',
      title: 'Stored first, the same flow completes',
      narration:
        'Node 1 is switched back: it writes the task, then answers (T8). The same call again: whichever node each poll reaches finds the task in the store.',
      run: (stage) => {
        stage.setEarlyHandle(EARLY_NODE, false);
        stage.callTool('slow_compute', { seconds: 2 }, true);
      },
      until: secondTaskFinished,
      expect: [
        taskIs(
          'completed',
          'the second slow_compute task ends completed',
          'slow_compute',
          (task, obs) => task.taskId === secondTask(obs)?.taskId && task.final === 'completed',
        ),
        expectThat(
          'found',
          'every tasks/get of the second task was answered with its status, also by the node that did not create it (T8, T19)',
          (obs) => {
            const task = secondTask(obs);
            const polls = pollsOf(obs, task);
            const created = rowsWhere(obs, {
              direction: 'in',
              method: 'tools/call',
              kind: 'result',
              taskId: task?.taskId,
            }).at(-1)?.node;
            const lost = polls.filter((row) => errorCodeOf(row) !== undefined);
            const elsewhere = polls.some((row) => row.node !== undefined && row.node !== created);
            return {
              pass: polls.length > 0 && lost.length === 0 && elsewhere,
              saw:
                polls.length === 0
                  ? 'no tasks/get of the second task answered yet'
                  : `${polls.length} tasks/get answered (${lost.length} with an error), by node ${[...new Set(polls.map((r) => r.node ?? '?'))].join(', node ')}; created on node ${created ?? '?'}`,
            };
          },
        ),
      ],
    },
  ],
});
