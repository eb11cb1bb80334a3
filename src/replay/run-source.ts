/**
 * A parsed run file's events as the replay reads them: the session's own
 * values (wire entries, packet updates, fault notices, task steps, x-ray
 * readings) passed on as they are, the wire log kept from before a reload as
 * its entries, and every other event (connection, server, tool call and
 * answer, rules, push...) as a moment with a line of text.
 */
import type { WireEntry } from '../client/rpc-client.ts';
import type { RunEvent } from '../record/run-events.ts';
import type { RunFile } from '../record/run-file.ts';
import type { ReplayEvent } from './replay-events.ts';
import { currentStep } from './renamed-steps.ts';

/** One line for an event the views do not draw, for the replay's status line. */
function labelOf(event: RunEvent): string {
  switch (event.kind) {
    case 'dropped':
      return `${event.count} older events were not kept by the recorder`;
    case 'connection':
      return `connection ${event.status.state}`;
    case 'server':
      return event.status.running
        ? `server #${event.status.generation} running`
        : `server #${event.status.generation} down`;
    case 'tool-call':
      return `tools/call ${event.request.name}`;
    case 'tool-answer':
      return `tools/call answered: ${event.answer.kind}`;
    case 'declare-tasks':
      return `declare the tasks extension: ${event.on ? 'on' : 'off'}`;
    case 'push':
      return `push ${event.status.state}`;
    case 'rules':
      return `${event.rules.length} fault rule${event.rules.length === 1 ? '' : 's'} armed`;
    case 'server-store':
      return `server store: ${event.status.chosen}`;
    case 'fault-log':
      return event.event.kind;
    default:
      return event.kind;
  }
}

/** The replay's events from a run's, in the run's order. */
export function replayEvents(run: RunFile): ReplayEvent[] {
  const events: ReplayEvent[] = [];
  for (const event of run.events) {
    const { at } = event;
    switch (event.kind) {
      case 'wire': {
        const entry: WireEntry = event.entry;
        events.push({ at, kind: 'wire', entry });
        break;
      }
      case 'wire-restored':
        for (const entry of event.entries) events.push({ at, kind: 'wire', entry });
        break;
      case 'wire-cleared':
        events.push({ at, kind: 'wire-cleared' });
        break;
      case 'packet':
        events.push({ at, kind: 'packet', update: event.update });
        break;
      case 'fault':
        events.push({ at, kind: 'fault', notice: event.notice });
        break;
      case 'task-followed':
        events.push({ at, kind: 'task', taskId: event.taskId, toolName: event.tool });
        break;
      case 'task-step': {
        // A run saved under the follower's older event names replays under today's.
        const step = currentStep(event.step);
        events.push({
          at,
          kind: 'task-step',
          step: {
            taskId: event.taskId,
            event: step.event,
            value: step.value,
            serverStatus: step.serverStatus,
            pollIntervalMs: step.pollIntervalMs,
            toolName: undefined,
            recorded: step,
          },
        });
        break;
      }
      case 'xray':
        events.push({ at, kind: 'xray', taskId: event.taskId, reading: event.reading });
        break;
      default:
        events.push({ at, kind: 'other', label: labelOf(event) });
    }
  }
  return events;
}
