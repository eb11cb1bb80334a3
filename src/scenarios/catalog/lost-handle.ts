import { expectThat, probeAnswers, taskEnds, taskIs, wireNever, wireShows } from '../expect.ts';
import { resultOf, rowsWhere, type Observation } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import type { ScenarioStage } from '../stage.ts';
import { probesAnswered, taskFinished, taskFollowed } from '../waits.ts';

/** The side connection that asks the server about the orphan; its rows are marked with this name. */
const XRAY = 'x-ray';
const FIRST_LOOK = 'tasks/get of the lost taskId';
const LAST_LOOK = 'tasks/get of the lost taskId, at the end';

/** The taskId of the CreateTaskResult the network lost: only the playground's x-ray of the network saw it. */
const lostTaskId = (obs: Observation): string | undefined => {
  const row = rowsWhere(obs, { direction: 'in', method: 'tools/call', kind: 'result' }).find(
    (r) => r.net?.lost !== undefined && r.resultType === 'task',
  );
  const taskId = row ? resultOf(row)?.['taskId'] : undefined;
  return typeof taskId === 'string' ? taskId : undefined;
};

/** Asks the server, over the x-ray connection as the same identity, how the lost task is doing. */
const lookAtOrphan = (stage: ScenarioStage, obs: Observation, label: string): void =>
  stage.probe(
    label,
    'tasks/get',
    { taskId: lostTaskId(obs) ?? '' },
    { declare: true, connection: XRAY },
  );

const short = (taskId: string | undefined): string => (taskId ? taskId.slice(0, 8) : 'none');

export const lostHandle = defineScenario({
  id: 'lost-handle',
  title: 'The lost handle: a second task, and an orphan',
  summary:
    'Creating a task is not idempotent: when the CreateTaskResult is lost, the re-issued tools/call creates a second task, while the first runs on unseen until its TTL. Only a handle that arrived can be followed.',
  specIds: ['M7', 'C8', 'T8', 'T13'],
  steps: [
    {
      id: 'lose',
      title: 'Lose the handle itself',
      narration:
        'A fault is scheduled: "when the next CreateTaskResult arrives, lose that message". Then slow_compute is called. The server creates the task and sends its handle; the network swallows it. The client has sent a tools/call and heard nothing.',
      run: (stage, { fast }) => {
        stage.arm('create-task-result', { kind: 'lose' });
        stage.callTool('slow_compute', { seconds: fast ? 4 : 10, label: 'report' }, true);
      },
      until: {
        description: 'the CreateTaskResult to be lost',
        holds: (obs) => lostTaskId(obs) !== undefined,
      },
      expect: [
        expectThat(
          'lost',
          'the CreateTaskResult left the server and was lost in the network',
          (obs) => ({
            pass: lostTaskId(obs) !== undefined,
            saw: lostTaskId(obs)
              ? `handle ${short(lostTaskId(obs))}… lost`
              : 'no lost CreateTaskResult',
          }),
        ),
        expectThat('unknown', 'the client follows no task: it never got a taskId', (obs) => ({
          pass: obs.tasks.length === 0 && obs.calls.some((c) => c.outcome === 'pending'),
          saw: `${obs.tasks.length} tasks followed; the call is ${obs.calls[0]?.outcome ?? 'not made'}`,
        })),
      ],
    },
    {
      id: 'reissue',
      title: 'The call is sent again',
      narration:
        'A client cannot tell a lost answer from a slow one. Here the link breaks, and the client does what it must for a request lost with its transport: it re-issues the tools/call under a new JSON-RPC id (C8). The server cannot know it is the same call: it creates a second task, and this handle arrives.',
      run: (stage) => stage.dropConnection(),
      until: taskFollowed('slow_compute'),
      expect: [
        wireShows(
          'reissued',
          'the tools/call is re-issued under a new id after the link broke (C8)',
          { direction: 'out', kind: 'request', method: 'tools/call' },
          (row) => row.reissueOf !== undefined && row.reissueOf !== row.id,
        ),
        taskIs(
          'second',
          'the handle that arrived names a second task, not the lost one (M7)',
          'slow_compute',
          (task, obs) => lostTaskId(obs) !== undefined && task.taskId !== lostTaskId(obs),
          (task) => `the client follows ${short(task.taskId)}…`,
        ),
      ],
    },
    {
      id: 'orphan',
      title: 'X-ray: the orphan runs on',
      narration: `Only the playground saw the lost taskId. A side connection (its rows say "${XRAY}"), as the same identity, asks the server about it: the first task exists and is still working. Nobody will ever poll it, and it stays in the store until its TTL (ttlMs from createdAt) has passed: this server deletes it a minute after that.`,
      run: async (stage, { obs }) => {
        await stage.openConnection(XRAY, 'learner');
        lookAtOrphan(stage, obs, FIRST_LOOK);
      },
      until: probesAnswered(FIRST_LOOK),
      expect: [
        probeAnswers(
          'runs-on',
          'the lost task exists on the server and is still working, with a TTL (M7, T8, T13)',
          FIRST_LOOK,
          (result) => result['status'] === 'working' && typeof result['ttlMs'] === 'number',
          (result) =>
            `${short(String(result['taskId']))}… ${String(result['status'])}, ttlMs ${String(result['ttlMs'])}`,
        ),
        wireNever(
          'unpolled',
          "the page's client never polls the lost task: it cannot, it never had its id",
          { direction: 'out', method: 'tasks/get' },
          (row, obs) => row.connection === undefined && row.taskId === lostTaskId(obs),
        ),
      ],
    },
    {
      id: 'both',
      title: 'Two tasks did the work',
      narration:
        'The followed task completes. So does the orphan, unseen: the work was done twice, and its result waits in the store, unread, until the server deletes it after its TTL.',
      run: async (stage, { waitFor }) => {
        const finished = await waitFor(taskFinished('slow_compute'), 30_000);
        lookAtOrphan(stage, finished, LAST_LOOK);
      },
      until: probesAnswered(LAST_LOOK),
      timeoutMs: 40_000,
      expect: [
        taskEnds('followed-done', 'slow_compute', 'completed'),
        probeAnswers(
          'orphan-done',
          'the orphan completed too, with its own result, still kept for its TTL (M7, T13)',
          LAST_LOOK,
          (result) => result['status'] === 'completed' && result['result'] !== undefined,
          (result) =>
            `${short(String(result['taskId']))}… ${String(result['status'])}, ttlMs ${String(result['ttlMs'])}`,
        ),
      ],
    },
  ],
});
