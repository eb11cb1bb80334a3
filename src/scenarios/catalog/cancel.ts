import { taskEnds, taskIs, wireShows } from '../expect.ts';
import { taskOf } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { taskFinished, taskFollowed, taskReported } from '../waits.ts';

/** The cancel was acknowledged with an empty `{resultType: "complete"}`. */
const cancelAcked = wireShows(
  'ack',
  'tasks/cancel acknowledged with an empty complete result (T17)',
  { direction: 'in', method: 'tasks/cancel', kind: 'result' },
  (row) => {
    // The ack is a result with nothing but resultType "complete": it says the cancel arrived, not how the task ended.
    const result = (row.message as { result?: Record<string, unknown> }).result;
    return (
      result !== undefined &&
      result['resultType'] === 'complete' &&
      Object.keys(result).every((key) => key === 'resultType' || key === '_meta')
    );
  },
);

export const cancelRace = defineScenario({
  id: 'cancel-race',
  title: 'A cancellation race',
  summary:
    'tasks/cancel is a request, not a command: when the work finishes before the cancel lands, the task ends completed, and the ack proved nothing.',
  specIds: ['T17', 'T9', 'T12'],
  steps: [
    {
      id: 'race',
      title: 'Cancel a task that is about to finish',
      narration:
        'slow_compute (half a second of work) starts. The moment it is followed, the link to the server is slowed to 1.5 s one way, and the learner presses Cancel. The tasks/cancel is still on the wire when the job finishes.',
      run: async (stage, { waitFor }) => {
        stage.callTool('slow_compute', { seconds: 0.5 }, true);
        const obs = await waitFor(taskFollowed('slow_compute'));
        stage.setConditions('out', {
          latencyMs: 1500,
          jitterMs: 0,
          lossRate: 0,
          duplicateRate: 0,
          reorderRate: 0,
        });
        stage.cancel(taskOf(obs, 'slow_compute')?.taskId ?? '');
      },
      until: taskFinished('slow_compute'),
      predict: {
        question: 'Cancel was sent while the task was working. How does it end?',
        choices: ['completed', 'cancelled', 'failed'],
        actual: (obs) => taskOf(obs, 'slow_compute')?.final ?? 'still running',
      },
      expect: [
        wireShows(
          'cancel-sent',
          'a tasks/cancel for the task was sent',
          { direction: 'out', method: 'tasks/cancel' },
          (row, obs) => row.taskId === taskOf(obs, 'slow_compute')?.taskId,
        ),
        cancelAcked,
        taskEnds('completed', 'slow_compute', 'completed'),
        taskIs(
          'intent',
          'the client still records that it asked to cancel (intent apart from status, T17)',
          'slow_compute',
          (task) => task.cancelRequested,
          (task) => `cancelRequested ${String(task.cancelRequested)}`,
        ),
      ],
    },
  ],
});

export const ignoresCancel = defineScenario({
  id: 'ignores-cancel',
  title: 'Cancelling a migration',
  summary:
    'Cancellation is cooperative: a migration that cannot stop half-way acknowledges tasks/cancel and still ends completed.',
  specIds: ['T17', 'T9'],
  steps: [
    {
      id: 'cancel',
      title: 'Cancel a migration',
      narration:
        'stubborn_migration copies rows in one transaction. As soon as it reports working, the learner presses Cancel; the server acknowledges at once.',
      run: async (stage, { waitFor }) => {
        stage.callTool('stubborn_migration', { rows: 50_000 }, true);
        const obs = await waitFor(taskReported('stubborn_migration', 'working'));
        stage.cancel(taskOf(obs, 'stubborn_migration')?.taskId ?? '');
      },
      until: {
        description: 'the cancel acknowledged',
        holds: (obs) => cancelAcked.check(obs).pass,
      },
      predict: {
        question:
          'Cancel will be sent while the migration works, and acknowledged. How does the task end?',
        choices: ['completed', 'cancelled', 'failed'],
        // Judged when the run ends (the step itself ends at the ack): read from the task's outcome.
        actual: (obs) => taskOf(obs, 'stubborn_migration')?.final ?? 'not ended yet',
        judgeAtStep: 'finish',
      },
      expect: [cancelAcked],
    },
    {
      id: 'finish',
      title: 'How it ends',
      narration:
        'The job saw the cancel (its statusMessage says so) and carried on, because a half-applied migration would be worse. The ack promised nothing.',
      until: taskFinished('stubborn_migration'),
      expect: [
        taskEnds('completed', 'stubborn_migration', 'completed'),
        taskIs(
          'anyway',
          'the result says it migrated "even though cancellation was requested"',
          'stubborn_migration',
          (task) =>
            JSON.stringify(task.result ?? null).includes('even though cancellation was requested'),
          (task) => `result ${JSON.stringify(task.result ?? null).slice(0, 120)}`,
        ),
      ],
    },
  ],
});
