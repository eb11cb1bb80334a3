/**
 * The replay fixtures' cancel race as a run file, every event in the
 * recorder's own kinds (for the loader's unit tests and the replay e2e).
 */
import fc from 'fast-check';
import type { TaskStatus } from '../../../src/protocol/task.ts';
import type { RunEvent } from '../../../src/record/run-events.ts';
import type { RunFile } from '../../../src/record/run-file.ts';
import { setupArbitrary } from '../helpers/run-arbitraries.ts';
import { cancelRace } from './replay-fixtures.ts';

const [setup] = fc.sample(setupArbitrary, { seed: 17, numRuns: 1 });

const step = (
  index: number,
  at: number,
  event: string,
  value: string,
  serverStatus: TaskStatus,
) => ({
  index,
  at,
  eventType: event,
  event,
  value,
  active: [],
  entered: [],
  taken: [],
  internal: [],
  serverStatus,
  cancelRequested: serverStatus === 'completed',
  polls: 1,
  pollIntervalMs: 500,
  pendingInputs: 0,
});

/** The cancel race as a run file, every event in the recorder's own kinds. */
export function cancelRaceRun(): RunFile {
  const events: RunEvent[] = [];
  for (const event of cancelRace()) {
    switch (event.kind) {
      case 'wire':
        events.push({ at: event.at, kind: 'wire', entry: event.entry });
        break;
      case 'packet':
        events.push({ at: event.at, kind: 'packet', update: event.update });
        break;
      case 'fault':
        events.push({
          at: event.at,
          kind: 'fault',
          notice: { ...event.notice, taskIds: [...event.notice.taskIds] },
        });
        break;
      case 'task-step':
        if (event.step.toolName)
          events.push({
            at: event.at,
            kind: 'task-followed',
            taskId: 't1',
            tool: event.step.toolName,
            restored: false,
          });
        events.push({
          at: event.at,
          kind: 'task-step',
          taskId: event.step.taskId,
          step: step(
            events.filter((recorded) => recorded.kind === 'task-step').length,
            event.at,
            event.step.event,
            event.step.value as string,
            event.step.serverStatus ?? 'working',
          ),
        });
        break;
      case 'xray':
        events.push({ at: event.at, kind: 'xray', taskId: event.taskId, reading: event.reading });
        break;
      default:
        events.push({
          at: event.at,
          kind: 'connection',
          status: { state: 'closed', info: { attempt: 0 } },
        });
    }
  }
  return {
    format: 'mcp-tasks-playground/run',
    version: 1,
    app: { version: '0.1.0' },
    recordedAt: '2026-12-01T15:00:00.000Z',
    setup: setup!,
    events,
  };
}
