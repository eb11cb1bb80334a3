/**
 * What the client saw at one history step, in the protocol's words: the
 * status it last heard (one of the five, T6), what brought the step about
 * (a `tasks/get` answer, a pushed notification, a `-32602`, a timer, the
 * user) and, second, the follower machine's state after it. The history
 * list leads with the first two; the machine's own state names
 * (`lifecycle.waiting`) are the client's bookkeeping, not what it saw.
 *
 * Plain TypeScript, tested in Node (`tests/unit/ui/history-seen.test.ts`).
 */
import type { MachineGraph } from '../../machines/machine-graph.ts';
import { ErrorCode } from '../../protocol/constants.ts';
import type { TaskStatus } from '../../protocol/task.ts';
import type { HistoryStep } from './task-history.ts';

export interface StepSeen {
  /** The status the client had last heard after this step. */
  status: TaskStatus;
  /** This step brought a status different from the step before (or is the first). */
  statusChanged: boolean;
  /** What caused the step, as the client met it ("tasks/get answered", "-32602 …"). */
  cause: string;
  /** The follower machine after it: its conclusion if it ended, else the states it entered. */
  follower: string;
}

/** `-32602` from "-32602 Task not found" (the step's `lastError` leads with its JSON-RPC code). */
export function errorCodeOf(lastError: string | undefined): number | undefined {
  const match = /^(-?\d+) /.exec(lastError ?? '');
  return match ? Number(match[1]) : undefined;
}

const isFinal = (step: HistoryStep): boolean => typeof step.value === 'string';

/** How a request's failure reads: its JSON-RPC error code, or a lost request (transport). */
function failure(request: string, step: HistoryStep): string {
  const code = errorCodeOf(step.lastError);
  if (code === ErrorCode.InvalidParams) return `${request} answered -32602: no such task`;
  if (code !== undefined) return `${request} answered error ${code}`;
  return `${request} lost (no answer)`;
}

/** Why the machine ended at a timer or on the link coming back: only the TTL ends it there (T13). */
const ttlOr = (step: HistoryStep, otherwise: string): string =>
  step.value === 'expired' ? 'TTL passed: the client gives up (T13)' : otherwise;

/** The cause of a step, by the event the follower processed (its label in the machine graph). */
function causeOf(step: HistoryStep, previous: HistoryStep | undefined): string {
  switch (step.event) {
    case 'start':
      return 'CreateTaskResult: the task as created';
    case 'poll.answered':
      return previous && previous.serverStatus !== step.serverStatus
        ? `tasks/get answered ${step.serverStatus}`
        : `tasks/get answered ${step.serverStatus} again`;
    case 'poll.failed':
      return failure('tasks/get', step);
    case 'task.notification':
      return `notifications/tasks pushed ${step.serverStatus} (T18)`;
    case 'after pollInterval':
      return ttlOr(
        step,
        step.link
          ? 'poll due, link down: waits to send it'
          : 'pollIntervalMs passed: tasks/get sent',
      );
    case 'after backoff':
      return ttlOr(
        step,
        step.link ? 'retry due, link down: waits' : 'backoff over: tasks/get sent',
      );
    case 'task.answer':
      return 'you answered: tasks/update to send';
    case 'done sendUpdate':
      return 'tasks/update acknowledged';
    case 'error sendUpdate':
      return failure('tasks/update', step);
    case 'after updateRetry':
      return 'tasks/update sent again';
    case 'task.cancel':
      return 'you asked to cancel: tasks/cancel sent';
    case 'done sendCancel':
      return 'tasks/cancel acknowledged (only a request, T17)';
    case 'error sendCancel':
      return failure('tasks/cancel', step);
    case 'after cancelRetry':
      return 'tasks/cancel sent again';
    case 'connection.lost':
      return 'link to the server lost';
    case 'connection.retrying':
      return 'reconnecting';
    case 'connection.restored':
      return ttlOr(step, 'link back');
    case 'task.forget':
      return 'you stopped following';
    default:
      return step.event;
  }
}

/** The follower after the step: a final state by its label ("gave up: TTL passed"), else what it entered. */
function followerOf(step: HistoryStep, graph: MachineGraph): string {
  if (isFinal(step)) {
    const id = `${graph.rootId}.${String(step.value)}`;
    return graph.nodes.find((n) => n.id === id)?.label ?? String(step.value);
  }
  const entered = step.entered.map((id) => id.split('.').slice(1).slice(-2).join('.'));
  return entered.length > 0 ? `→ ${entered.join(', ')}` : 'no state change';
}

/** What the client saw at `step`; `previous` is the recorded step before it, if any. */
export function stepSeen(
  step: HistoryStep,
  previous: HistoryStep | undefined,
  graph: MachineGraph,
): StepSeen {
  return {
    status: step.serverStatus,
    statusChanged: previous === undefined || previous.serverStatus !== step.serverStatus,
    cause: causeOf(step, previous),
    follower: followerOf(step, graph),
  };
}

/**
 * The steps "Status changes only" lists: the first step, then each step
 * whose status seen differs from the step listed before it. A poll that
 * heard the same status again is no change, nor is the client giving up
 * (TTL passed, `-32602`, stopped following) on the `working` it last
 * heard: the status seen stays what it was. A 20 s task's ~80 steps come
 * down to its two or three statuses.
 */
export function statusChanges(steps: readonly HistoryStep[]): readonly HistoryStep[] {
  const listed: HistoryStep[] = [];
  for (const step of steps) {
    const before = listed.at(-1);
    if (before === undefined || step.serverStatus !== before.serverStatus) listed.push(step);
  }
  return listed;
}
