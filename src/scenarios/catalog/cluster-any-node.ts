import { expectThat, taskEnds } from '../expect.ts';
import { errorCodeOf, nodesAnswering, taskOf } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { neverNotFound } from '../steps.ts';
import { polledAtLeast, taskFinished } from '../waits.ts';

export const clusterAnyNode = defineScenario({
  id: 'cluster-any-node',
  title: 'Cluster: any node serves the poll',
  summary:
    "Three server nodes share one task store behind a round-robin balancer: one task's polls land on every node, and each answers, because the task lives in the store, not in a node.",
  specIds: ['T19', 'C1', 'T12'],
  setup: { store: 'indexeddb', cluster: { nodes: 3, policy: 'round-robin' } },
  steps: [
    {
      id: 'call',
      title: 'Start a task on whichever node',
      narration:
        'slow_compute (4 s). The balancer sends the tools/call to one node, which stores the task before it answers with the handle (T8).',
      run: (stage, { fast }) => stage.callTool('slow_compute', { seconds: fast ? 3 : 4 }, true),
      until: polledAtLeast('slow_compute', 3),
      predict: {
        question:
          'Round-robin sends the next three polls to three different nodes. What do they answer?',
        choices: ['working, from every node', '-32602 from the nodes that did not create it'],
        actual: (obs) =>
          obs.wire.some((row) => errorCodeOf(row) === -32602)
            ? '-32602 from the nodes that did not create it'
            : 'working, from every node',
      },
      expect: [
        expectThat('three-nodes', "the task's polls were answered by three nodes (T19)", (obs) => {
          const nodes = nodesAnswering(obs, taskOf(obs, 'slow_compute')?.taskId);
          return {
            pass: nodes.length >= 3,
            saw: nodes.length === 0 ? 'no poll answered yet' : `nodes ${nodes.join(', ')}`,
          };
        }),
      ],
    },
    {
      id: 'complete',
      title: 'Completed, wherever it was asked',
      narration:
        'Every node reads the one store, so it does not matter which node each poll reaches: the task completes, and no node ever says it does not know it.',
      until: taskFinished('slow_compute'),
      expect: [
        taskEnds('completed', 'slow_compute', 'completed'),
        neverNotFound('a shared store serves any request (T19)'),
      ],
    },
  ],
});
