import { expectThat, probeAnswers, probeFails, taskEnds, taskIs } from '../expect.ts';
import { probeOf, taskOf } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { probesAnswered, taskFinished, taskReported } from '../waits.ts';

/** Labels of the connections this scenario opens, as the wire log shows them. */
const SECOND_CONNECTION = 'second connection';
const OTHER_IDENTITY = 'mallory';

export const handleNotSession = defineScenario({
  id: 'handle-not-session',
  title: 'A taskId is a handle, not a session',
  summary:
    'The same taskId works from a new connection and from a second tab, because a task belongs to an identity, not a connection; another identity gets -32602.',
  specIds: ['M5', 'T20', 'C1', 'T13'],
  setup: { store: 'indexeddb' },
  steps: [
    {
      id: 'start',
      title: 'Start a task',
      narration:
        'slow_compute (long enough to visit it from elsewhere), as the identity learner. The server keeps it in IndexedDB, which every tab of this browser shares.',
      run: (stage, { fast }) => stage.callTool('slow_compute', { seconds: fast ? 6 : 30 }, true),
      until: taskReported('slow_compute', 'working'),
    },
    {
      id: 'new-connection',
      title: 'From a new connection',
      narration: `A second connection is opened to the same server, as learner too, over a fresh MessagePort (its rows are marked "${SECOND_CONNECTION}"). It has never seen this task, and asks tasks/get {taskId}.`,
      run: async (stage, { obs }) => {
        await stage.openConnection(SECOND_CONNECTION, 'learner');
        stage.probe(
          'tasks/get (new connection)',
          'tasks/get',
          { taskId: taskOf(obs, 'slow_compute')?.taskId ?? '' },
          { declare: true, connection: SECOND_CONNECTION },
        );
      },
      until: probesAnswered('tasks/get (new connection)'),
      expect: [
        probeAnswers(
          'works',
          'the new connection gets the task, same taskId (M5, C1)',
          'tasks/get (new connection)',
          (result) => result['status'] === 'working' || result['status'] === 'completed',
          (result) => `status ${String(result['status'])} for ${String(result['taskId'])}`,
        ),
      ],
    },
    {
      id: 'other-identity',
      title: 'From another identity',
      narration: `Now a connection as ${OTHER_IDENTITY}, who did not create the task, asks tasks/get and then tasks/cancel with the same taskId. A taskId is a reference, not a permission.`,
      run: async (stage, { obs }) => {
        await stage.openConnection(OTHER_IDENTITY, OTHER_IDENTITY);
        const taskId = taskOf(obs, 'slow_compute')?.taskId ?? '';
        stage.probe(
          'tasks/get (mallory)',
          'tasks/get',
          { taskId },
          { declare: true, connection: OTHER_IDENTITY },
        );
        stage.probe(
          'tasks/cancel (mallory)',
          'tasks/cancel',
          { taskId },
          { declare: true, connection: OTHER_IDENTITY },
        );
      },
      until: probesAnswered('tasks/get (mallory)', 'tasks/cancel (mallory)'),
      predict: {
        question: `What does ${OTHER_IDENTITY}'s tasks/get answer?`,
        choices: ['error -32602', 'the task', 'error -32601'],
        actual: (obs) => {
          const probe = probeOf(obs, 'tasks/get (mallory)');
          return probe?.state === 'error'
            ? `error ${probe.error?.code}`
            : probe?.state === 'result'
              ? 'the task'
              : 'no answer';
        },
      },
      expect: [
        probeFails(
          'get-refused',
          `${OTHER_IDENTITY}'s tasks/get answered -32602, as for a missing task (T20)`,
          'tasks/get (mallory)',
          -32602,
        ),
        probeFails(
          'cancel-refused',
          `${OTHER_IDENTITY}'s tasks/cancel answered -32602 (T20, T13)`,
          'tasks/cancel (mallory)',
          -32602,
        ),
        taskIs(
          'untouched',
          "the learner's task was not cancelled",
          'slow_compute',
          (task) => task.serverStatus !== 'cancelled',
          (task) => `status ${task.serverStatus}`,
        ),
      ],
    },
    {
      id: 'second-tab',
      title: 'From a second tab',
      narration:
        'Open the link below in a new tab: that page has its own client and its own server worker, and knows nothing but the taskId in its address. It follows the task, and tells this tab what its tasks/get saw.',
      tabLink: (obs) => {
        const taskId = taskOf(obs, 'slow_compute')?.taskId;
        return taskId ? { label: 'Open the second tab', query: { follow: taskId } } : undefined;
      },
      until: {
        description: 'a report from the second tab',
        holds: (obs) => obs.peers.some((p) => p.taskId === taskOf(obs, 'slow_compute')?.taskId),
      },
      timeoutMs: 180_000,
      expect: [
        expectThat('second-tab', "the second tab's own tasks/get found the task (M5)", (obs) => {
          const taskId = taskOf(obs, 'slow_compute')?.taskId;
          const report = obs.peers.findLast((p) => p.taskId === taskId);
          return {
            pass: report?.status === 'working' || report?.status === 'completed',
            saw: report
              ? (report.error ?? `status ${report.status}`)
              : 'no report from a second tab',
          };
        }),
      ],
    },
    {
      id: 'finish',
      title: 'It finishes',
      narration: 'The task runs to the end whoever asked about it.',
      until: taskFinished('slow_compute'),
      timeoutMs: 30_000,
      expect: [taskEnds('completed', 'slow_compute', 'completed')],
    },
  ],
});
