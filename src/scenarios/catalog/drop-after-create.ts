import { expectThat, taskEnds } from '../expect.ts';
import { describeRow, rowsWhere, taskOf, type Observation } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { taskFinished, taskFollowed } from '../waits.ts';

/** When the link was dropped, if it was. */
const droppedAt = (obs: Observation): number | undefined =>
  obs.faults.find((f) => f.kind === 'link.dropped')?.at;

export const dropAfterCreate = defineScenario({
  id: 'drop-after-create',
  title: 'Connection dropped right after CreateTaskResult',
  summary:
    'The connection that created a task need not stay open: after a drop, the client reconnects and polls the same taskId to the end.',
  specIds: ['M3', 'C1', 'C8', 'T12'],
  steps: [
    {
      id: 'call',
      title: 'Arm the fault, then call',
      narration:
        'A fault is scheduled on the network: "when the next CreateTaskResult arrives, drop the connection". Then slow_compute (a few seconds) is called. The handle gets through, and the link dies right behind it.',
      run: (stage, { fast }) => {
        stage.arm('create-task-result', { kind: 'drop' });
        stage.callTool('slow_compute', { seconds: fast ? 1.5 : 4 }, true);
      },
      until: taskFollowed('slow_compute'),
      expect: [
        expectThat('dropped', 'the scheduled fault fired and dropped the link', (obs) => {
          const fired = obs.faults.some((f) => f.kind === 'rule.fired');
          return {
            pass: fired && droppedAt(obs) !== undefined,
            saw: `${fired ? 'rule fired' : 'rule not fired'}, ${droppedAt(obs) !== undefined ? 'link dropped' : 'link not dropped'}`,
          };
        }),
      ],
    },
    {
      id: 'reconnect',
      title: 'Reconnect, and poll the same taskId',
      narration:
        'The client reconnects with backoff over a brand-new link. It has nothing but the taskId, and that is enough: tasks/get {taskId} on the new link gets the task.',
      until: {
        description: 'a tasks/get answer after the drop',
        holds: (obs) =>
          rowsWhere(obs, { direction: 'in', method: 'tasks/get', kind: 'result' }).some(
            (row) => row.at > (droppedAt(obs) ?? Infinity),
          ),
      },
      expect: [
        expectThat(
          'same-id',
          'after the drop, tasks/get for the same taskId is answered (M3)',
          (obs) => {
            const taskId = taskOf(obs, 'slow_compute')?.taskId;
            const after = rowsWhere(obs, { direction: 'in', method: 'tasks/get' }).filter(
              (row) => row.at > (droppedAt(obs) ?? Infinity),
            );
            const hit = after.find((row) => row.kind === 'result' && row.taskId === taskId);
            return {
              pass: hit !== undefined,
              saw: hit
                ? describeRow(hit)
                : after.length === 0
                  ? 'no tasks/get answer after the drop'
                  : after.map(describeRow).join('; '),
            };
          },
        ),
      ],
    },
    {
      id: 'finish',
      title: 'To the end',
      narration:
        'Polling carries on over the new link until the task completes. Nothing about the task belonged to the old connection.',
      until: taskFinished('slow_compute'),
      expect: [taskEnds('completed', 'slow_compute', 'completed')],
    },
  ],
});
