import { taskEnds, wireShows } from '../expect.ts';
import { createdOn } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { answeredNotFound } from '../steps.ts';
import { taskFinished, taskFollowed } from '../waits.ts';

export const clusterPerNodeMemory = defineScenario({
  id: 'cluster-per-node-memory',
  title: 'Cluster: per-node memory behind round-robin',
  summary:
    'The broken deployment: each node keeps tasks in its own memory and the balancer goes round-robin, so the first poll that reaches another node is answered -32602 and the task is lost.',
  specIds: ['T19', 'T13', 'C7'],
  setup: { store: 'memory', cluster: { nodes: 3, policy: 'round-robin' } },
  steps: [
    {
      id: 'call',
      title: 'Start a task on one node',
      narration:
        "slow_compute (4 s). The node the balancer picked keeps the task in its worker's memory; the other two have never heard of it.",
      run: (stage) => stage.callTool('slow_compute', { seconds: 4 }, true),
      until: taskFollowed('slow_compute'),
      expect: [
        wireShows(
          'handle',
          'one node answered the tools/call with a task handle (T7)',
          { direction: 'in', method: 'tools/call', kind: 'result' },
          (row) => row.node !== undefined && row.gist.startsWith('task'),
        ),
      ],
    },
    {
      id: 'poll',
      title: 'Poll through the balancer',
      narration:
        'The next tasks/get goes to the next node. It looks in its own memory, finds nothing, and answers as for any unknown taskId.',
      until: taskFinished('slow_compute'),
      expect: [
        answeredNotFound(
          'other-node',
          'another node than the one that created the task answered tasks/get -32602 (T19)',
          'slow_compute',
          (row, obs) => row.node !== undefined && row.node !== createdOn(obs, 'slow_compute'),
        ),
        taskEnds('gone', 'slow_compute', 'gone'),
      ],
    },
  ],
});
