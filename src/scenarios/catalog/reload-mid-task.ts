import { expectThat, taskEnds, taskIs } from '../expect.ts';
import { describeRow, rowsWhere, type Observation, type ScenarioWireRow } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { polledAtLeast, taskFinished } from '../waits.ts';

/** The CreateTaskResult (kept in the page's log across the reload). */
const handleRow = (obs: Observation): ScenarioWireRow | undefined =>
  rowsWhere(obs, { direction: 'in', method: 'tools/call' }).find((row) =>
    row.gist.startsWith('task'),
  );

/** This page was loaded after the task was created: the reload happened. */
const reloaded = (obs: Observation): boolean => {
  const handle = handleRow(obs);
  return handle !== undefined && obs.pageLoadedAt > handle.at;
};

export const reloadMidTask = defineScenario({
  id: 'reload-mid-task',
  title: 'Page reloaded mid-task',
  summary:
    'The page keeps taskIds, not connections: after a real reload it polls the same taskId and the task finishes.',
  specIds: ['T12', 'M5', 'C1'],
  setup: { store: 'indexeddb' },
  steps: [
    {
      id: 'start',
      title: 'Start a task',
      narration:
        "The server keeps tasks in IndexedDB for this one (a reload ends the page's worker too, and a fresh worker must find the task). slow_compute runs for 4 s; the page writes the taskId to its own IndexedDB journal.",
      run: (stage) => stage.callTool('slow_compute', { seconds: 4 }, true),
      until: polledAtLeast('slow_compute', 1),
    },
    {
      id: 'reload',
      title: 'Reload the page',
      narration:
        "A real reload: every actor, connection and timer of this page is gone. The scenario's place is kept in sessionStorage; the taskId in IndexedDB.",
      run: (stage) => stage.reload(),
      until: {
        description: 'a tasks/get answered after the reload',
        holds: (obs) =>
          reloaded(obs) &&
          rowsWhere(obs, { direction: 'in', method: 'tasks/get' }).some(
            (row) => row.at > obs.pageLoadedAt,
          ),
      },
      timeoutMs: 30_000,
      expect: [
        expectThat('reloaded', 'the page was reloaded after the task started', (obs) => {
          const created = handleRow(obs);
          return {
            pass: reloaded(obs),
            saw: created
              ? `page loaded ${obs.pageLoadedAt > created.at ? 'after' : 'before'} the CreateTaskResult`
              : 'no CreateTaskResult kept in the log',
          };
        }),
        expectThat('same-id', 'the reloaded page polls the same taskId (T12, M5)', (obs) => {
          const created = handleRow(obs);
          const after = rowsWhere(obs, { direction: 'out', method: 'tasks/get' }).filter(
            (row) => row.at > obs.pageLoadedAt,
          );
          const hit = after.find(
            (row) => row.taskId !== undefined && row.taskId === created?.taskId,
          );
          return {
            pass: hit !== undefined,
            saw: hit
              ? describeRow(hit)
              : `${after.length} tasks/get since the reload, none for ${created?.taskId ?? 'the created task'}`,
          };
        }),
      ],
    },
    {
      id: 'finish',
      title: 'It finishes',
      narration:
        'A fresh worker took the job over from its last checkpoint, and the fresh page follows it to the end.',
      until: taskFinished('slow_compute'),
      timeoutMs: 30_000,
      expect: [
        taskEnds('completed', 'slow_compute', 'completed'),
        taskIs(
          'result',
          'the result says "Computed in 4 s"',
          'slow_compute',
          (task) => JSON.stringify(task.result ?? null).includes('Computed in 4 s'),
          (task) => `result ${JSON.stringify(task.result ?? null).slice(0, 100)}`,
        ),
      ],
    },
  ],
});
