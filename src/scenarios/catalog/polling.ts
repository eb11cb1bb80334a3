import { expectThat, taskEnds, wireShows } from '../expect.ts';
import { paramsOf, resultOf, rowsWhere, taskOf, type Observation } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { taskFinished } from '../waits.ts';

/**
 * How long after the previous tasks/get (or its last re-issue) the client
 * sent each next one: the machine paces sends by frequency (T12), one
 * interval from send to send, and no sooner than the interval less its slack
 * after the answer, so a short round trip is inside the interval and a long
 * one only stretches it.
 */
function pollWaits(obs: Observation, toolName: string): number[] {
  const taskId = taskOf(obs, toolName)?.taskId;
  const sent = rowsWhere(obs, { direction: 'out', method: 'tasks/get', taskId });
  return sent.flatMap((request, i) =>
    i > 0 && request.reissueOf === undefined ? [request.at - sent[i - 1]!.at] : [],
  );
}

const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/**
 * The client never polled sooner than the interval the server asked for
 * (timers may fire a few ms early): checked on every poll to the end of the
 * run, so one early poll at any time turns it red.
 */
function honoured(toolName: string, intervalMs: number) {
  return expectThat(
    `${toolName}-waits`,
    `each tasks/get for ${toolName} leaves at least its pollIntervalMs, ${intervalMs} ms, after the one before (T12)`,
    (obs) => {
      const waits = pollWaits(obs, toolName);
      if (waits.length === 0) return { pass: true, saw: 'no second poll yet' };
      const shortest = Math.min(...waits);
      return {
        pass: shortest >= intervalMs - 20,
        saw: `${waits.length} waits of ${Math.round(shortest)}..${Math.round(Math.max(...waits))} ms`,
      };
    },
    'throughout',
  );
}

const announces = (toolName: string, intervalMs: number) =>
  wireShows(
    `${toolName}-interval`,
    `the ${toolName} handle says pollIntervalMs ${intervalMs} (T6)`,
    { direction: 'in', method: 'tools/call', kind: 'result' },
    (row) => row.gist.startsWith('task') && resultOf(row)?.['pollIntervalMs'] === intervalMs,
  );

export const pollIntervalHonoured = defineScenario({
  id: 'poll-interval-honoured',
  title: 'pollIntervalMs honoured',
  summary:
    'The server says how often to poll, per task; the client waits at least that long between tasks/get, and follows a different interval for a different task.',
  specIds: ['T12', 'T6'],
  steps: [
    {
      id: 'half-second',
      title: 'A task that asks for 500 ms',
      narration:
        "slow_compute's handle carries pollIntervalMs 500. Watch the times of the tasks/get requests in the wire log: never closer than half a second.",
      run: (stage, { fast }) => stage.callTool('slow_compute', { seconds: fast ? 2 : 4 }, true),
      until: taskFinished('slow_compute'),
      expect: [
        announces('slow_compute', 500),
        honoured('slow_compute', 500),
        taskEnds('completed', 'slow_compute', 'completed'),
      ],
    },
    {
      id: 'quarter-second',
      title: 'A task that asks for 250 ms',
      narration:
        'failing_job asks for 250 ms, and the client polls it twice as often. The interval belongs to the task, not to the client.',
      run: (stage) => stage.callTool('failing_job', {}, true),
      until: taskFinished('failing_job'),
      expect: [
        announces('failing_job', 250),
        honoured('failing_job', 250),
        expectThat(
          'own-interval',
          "the client waited less between failing_job polls than between slow_compute ones: each task's own interval",
          (obs) => {
            const fast = median(pollWaits(obs, 'failing_job'));
            const slow = median(pollWaits(obs, 'slow_compute'));
            return {
              pass: fast < slow,
              saw: `median waits ${Math.round(fast)} ms against ${Math.round(slow)} ms`,
            };
          },
        ),
      ],
    },
  ],
});

export const pushAndPoll = defineScenario({
  id: 'push-and-poll',
  title: 'Push notifications next to polling',
  summary:
    'subscriptions/listen lets the server push notifications/tasks, each a full task as tasks/get would return it: while the stream lives push alone is enough, and polling alongside is allowed.',
  specIds: ['T18', 'C9', 'T12'],
  steps: [
    {
      id: 'subscribe',
      title: 'Subscribe, then call',
      narration:
        'The "also subscribe" switch is on: once the task is followed, the client opens subscriptions/listen for its taskId. The server acknowledges the taskIds it agreed to.',
      run: (stage, { fast }) => {
        stage.setPush(true);
        stage.callTool('slow_compute', { seconds: fast ? 2 : 4 }, true);
      },
      until: {
        description: 'the subscription acknowledged',
        holds: (obs) =>
          rowsWhere(obs, { direction: 'in', method: 'notifications/subscriptions/acknowledged' })
            .length > 0,
      },
      expect: [
        wireShows(
          'listen',
          "subscriptions/listen asks for the task's id (T18, C9)",
          { direction: 'out', method: 'subscriptions/listen' },
          (row, obs) =>
            JSON.stringify(paramsOf(row)?.['notifications'] ?? null).includes(
              taskOf(obs, 'slow_compute')?.taskId ?? '?',
            ),
        ),
        wireShows('ack', 'the server acknowledges the subscription (C9)', {
          direction: 'in',
          method: 'notifications/subscriptions/acknowledged',
        }),
      ],
    },
    {
      id: 'both',
      title: 'Pushes and polls together',
      narration:
        'Each status change arrives as notifications/tasks carrying the whole task, while tasks/get polling carries on at its interval. Either alone would be enough; together they agree.',
      until: taskFinished('slow_compute'),
      expect: [
        wireShows(
          'pushed',
          'a notifications/tasks for the task, carrying status and the subscriptionId (T18, C9)',
          { direction: 'in', method: 'notifications/tasks' },
          (row, obs) => {
            const params = paramsOf(row);
            return (
              row.taskId === taskOf(obs, 'slow_compute')?.taskId &&
              typeof params?.['status'] === 'string' &&
              JSON.stringify(params?.['_meta'] ?? null).includes('subscriptionId')
            );
          },
        ),
        wireShows(
          'polled',
          'tasks/get polls still answered alongside (T12, T18)',
          { direction: 'in', method: 'tasks/get', kind: 'result' },
          (row, obs) => row.taskId === taskOf(obs, 'slow_compute')?.taskId,
        ),
        taskEnds('completed', 'slow_compute', 'completed'),
      ],
    },
  ],
});
