import { expectThat, taskEnds } from '../expect.ts';
import { createdOn, nodesAnswering, taskOf } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { answeredNotFound, faultSeen, pollSaysWorking } from '../steps.ts';
import { polledAtLeast, taskFinished } from '../waits.ts';

export const clusterSticky = defineScenario({
  id: 'cluster-sticky',
  title: 'Cluster: sticky by Mcp-Name, until the node dies',
  summary:
    'The other correct deployment: the balancer sends each tasks/* to the node that created the task (its Mcp-Name header), so per-node memory works, until that node dies and takes the task with it.',
  specIds: ['T19', 'T13'],
  setup: { store: 'memory', cluster: { nodes: 3, policy: 'sticky' } },
  steps: [
    {
      id: 'sticky',
      title: 'Every poll to the same node',
      narration:
        'slow_compute (8 s). The balancer learns which node created the task from the CreateTaskResult it forwards; every tasks/get names the taskId in Mcp-Name, so it goes back to that node.',
      run: (stage) => stage.callTool('slow_compute', { seconds: 8 }, true),
      until: polledAtLeast('slow_compute', 3),
      expect: [
        expectThat('one-node', "every poll was answered by the task's own node (T19)", (obs) => {
          const created = createdOn(obs, 'slow_compute');
          const nodes = nodesAnswering(obs, taskOf(obs, 'slow_compute')?.taskId);
          return {
            pass: created !== undefined && nodes.length === 1 && nodes[0] === created,
            saw: `created on node ${created ?? '?'}; polls answered by ${nodes.length > 0 ? `node ${nodes.join(', node ')}` : 'no node yet'}`,
          };
        }),
        pollSaysWorking('its node answers working'),
      ],
    },
    {
      id: 'kill',
      title: "Kill the task's node",
      narration:
        'The node holding the task dies. Sticky routing has nowhere to send the next tasks/get but another node, whose memory never held the task.',
      run: (stage, { obs }) => stage.killNode(createdOn(obs, 'slow_compute') ?? 1),
      until: taskFinished('slow_compute'),
      predict: {
        question: 'What happens to the task?',
        choices: ['another node answers -32602: it is gone', 'another node carries it on'],
        actual: (obs) =>
          taskOf(obs, 'slow_compute')?.final === 'gone'
            ? 'another node answers -32602: it is gone'
            : 'another node carries it on',
      },
      expect: [
        answeredNotFound(
          'lost',
          'after the kill, another node answered tasks/get -32602 (T19: correct only until that node dies)',
          'slow_compute',
          (row, obs) => row.node !== createdOn(obs, 'slow_compute'),
        ),
        taskEnds('gone', 'slow_compute', 'gone'),
        faultSeen('killed', 'the node was killed, the others kept running', 'node.killed'),
      ],
    },
  ],
});
