import { expectThat, taskEnds, wireShows } from '../expect.ts';
import { paramsOf, resultOf, rowsWhere, taskOf, type Observation } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { taskFinished } from '../waits.ts';

/** Gaps in ms between consecutive tasks/get requests for the newest `toolName` task. */
function pollGaps(obs: Observation, toolName: string): number[] {
  const times = rowsWhere(obs, { direction: 'out', method: 'tasks/get', taskId: taskOf(obs, toolName)?.taskId }).filter((row) => row.reissueOf === undefined).map((row) => row.at);
  return times.slice(1).map((at, i) => at - times[i]!);
}

/** No two polls closer than the interval the server asked for (timers may fire a few ms early). */
function honoured(toolName: string, intervalMs: number) {
  return expectThat(`${toolName}-gaps`, `every tasks/get for ${toolName} waits at least its pollIntervalMs, ${intervalMs} ms (T12)`, (obs) => {
    const gaps = pollGaps(obs, toolName);
    const shortest = Math.min(...gaps);
    return { pass: gaps.length >= 2 && shortest >= intervalMs - 20, saw: gaps.length === 0 ? 'fewer than two polls' : `${gaps.length + 1} polls, gaps ${Math.round(shortest)}..${Math.round(Math.max(...gaps))} ms` };
  });
}

const announces = (toolName: string, intervalMs: number) =>
  wireShows(`${toolName}-interval`, `the ${toolName} handle says pollIntervalMs ${intervalMs} (T6)`, { direction: 'in', method: 'tools/call', kind: 'result' }, (row) => row.gist.startsWith('task') && resultOf(row)?.['pollIntervalMs'] === intervalMs);

export const pollIntervalHonoured = defineScenario({
  id: 'poll-interval-honoured',
  title: 'pollIntervalMs honoured',
  summary: 'The server says how often to poll, per task; the client waits at least that long between tasks/get, and follows a different interval for a different task.',
  specIds: ['T12', 'T6'],
  steps: [
    {
      id: 'half-second',
      title: 'A task that asks for 500 ms',
      narration: 'slow_compute\'s handle carries pollIntervalMs 500. Watch the times of the tasks/get requests in the wire log: never closer than half a second.',
      run: (stage) => stage.callTool('slow_compute', { seconds: 3 }, true),
      until: taskFinished('slow_compute'),
      expect: [announces('slow_compute', 500), honoured('slow_compute', 500), taskEnds('completed', 'slow_compute', 'completed')],
    },
    {
      id: 'quarter-second',
      title: 'A task that asks for 250 ms',
      narration: 'failing_job asks for 250 ms, and the client polls it twice as often. The interval belongs to the task, not to the client.',
      run: (stage) => stage.callTool('failing_job', {}, true),
      until: taskFinished('failing_job'),
      expect: [
        announces('failing_job', 250),
        honoured('failing_job', 250),
        expectThat('faster', 'failing_job was polled faster than slow_compute: the client follows each task\'s own interval', (obs) => {
          const fast = pollGaps(obs, 'failing_job');
          const slow = pollGaps(obs, 'slow_compute');
          const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
          return { pass: median(fast) < median(slow), saw: `median gaps ${Math.round(median(fast))} ms against ${Math.round(median(slow))} ms` };
        }),
      ],
    },
  ],
});

export const pushAndPoll = defineScenario({
  id: 'push-and-poll',
  title: 'Push notifications next to polling',
  summary: 'subscriptions/listen lets the server push notifications/tasks, each a full task as tasks/get would return it; polling stays valid alongside.',
  specIds: ['T18', 'C9', 'T12'],
  steps: [
    {
      id: 'subscribe',
      title: 'Subscribe, then call',
      narration: 'The "also subscribe" switch is on: once the task is followed, the client opens subscriptions/listen for its taskId. The server acknowledges the taskIds it agreed to.',
      run: (stage) => {
        stage.setPush(true);
        stage.callTool('slow_compute', { seconds: 3 }, true);
      },
      until: { description: 'the subscription acknowledged', holds: (obs) => rowsWhere(obs, { direction: 'in', method: 'notifications/subscriptions/acknowledged' }).length > 0 },
      expect: [
        wireShows('listen', 'subscriptions/listen asks for the task\'s id (T18, C9)', { direction: 'out', method: 'subscriptions/listen' }, (row, obs) =>
          JSON.stringify(paramsOf(row)?.['notifications'] ?? null).includes(taskOf(obs, 'slow_compute')?.taskId ?? '?'),
        ),
        wireShows('ack', 'the server acknowledges the subscription (C9)', { direction: 'in', method: 'notifications/subscriptions/acknowledged' }),
      ],
    },
    {
      id: 'both',
      title: 'Pushes and polls together',
      narration: 'Each status change arrives as notifications/tasks carrying the whole task, while tasks/get polling carries on at its interval. Either alone would be enough; together they agree.',
      until: taskFinished('slow_compute'),
      expect: [
        wireShows('pushed', 'a notifications/tasks for the task, carrying status and the subscriptionId (T18, C9)', { direction: 'in', method: 'notifications/tasks' }, (row, obs) => {
          const params = paramsOf(row);
          return row.taskId === taskOf(obs, 'slow_compute')?.taskId && typeof params?.['status'] === 'string' && JSON.stringify(params?.['_meta'] ?? null).includes('subscriptionId');
        }),
        wireShows('polled', 'tasks/get polls still answered alongside (T12, T18)', { direction: 'in', method: 'tasks/get', kind: 'result' }, (row, obs) => row.taskId === taskOf(obs, 'slow_compute')?.taskId),
        taskEnds('completed', 'slow_compute', 'completed'),
      ],
    },
  ],
});
