/**
 * The protocol's task lifecycle (T6, T9) as a statechart: exactly the five
 * statuses, and one transition per cause. The server moves every stored
 * task through it (src/server/task-lifecycle.ts), and the page draws the
 * same definition (machine-graph.ts), so the chart a learner reads is the
 * rule the server obeys.
 *
 * A task's state lives in the task store, not in a long-lived actor (any
 * server node may serve any request, C1), so nothing runs this machine as
 * an actor: each store update asks it, purely, where the stored status may
 * go on one event ({@link statusAfter}). An event the current state does
 * not take is an illegal move, and the update leaves the status alone:
 * nothing leaves `completed`, `failed` or `cancelled` (T9), and no event
 * carrying a tool result leads anywhere but `completed` (T11).
 *
 * What is deliberately not a transition:
 * - `tasks/cancel` itself: it is only a request (T17). The job decides,
 *   and only `job.honouredCancel` moves the task.
 * - Deletion. `purgeAfterMs` after its TTL the server deletes the task (T13):
 *   the record leaves the store and its id answers `-32602`. That is the
 *   end of the task's existence, not a status, so it is the machine's
 *   {@link TASK_LIFECYCLE_DELETION} note (root `meta`) and no state.
 */
import { setup, transition, type SnapshotFrom } from 'xstate';
import type { TaskStatus } from '../protocol/task.ts';

/** Each cause that moves a task, named for what happened. */
export type LifecycleEvent =
  /** The job needs answers: new `inputRequests` (T14). */
  | { type: 'job.askedForInput' }
  /** `tasks/update` answered every outstanding key (T15); a partial answer moves nothing. */
  | { type: 'input.allAnswered' }
  /** The job returned its `CallToolResult`, `isError: true` included: still `completed` (T11). */
  | { type: 'job.returnedResult' }
  /** A JSON-RPC error during execution: `failed`, with `error` and a `statusMessage` (T10, T11). */
  | { type: 'job.raisedProtocolError' }
  /** The job stopped because `tasks/cancel` asked it to (T17). */
  | { type: 'job.honouredCancel' }
  /** `createdAt + ttlMs` passed before the task ended (T13). */
  | { type: 'ttl.passed' };

export type LifecycleEventType = LifecycleEvent['type'];

/** What the chart says about deletion, which is no state (T13). */
export const TASK_LIFECYCLE_DELETION =
  'once createdAt + ttlMs has passed the server may delete the task (this server does, a purge delay later: 60 s unless the tool sets its own, 4 s for flash_sale_quote): it leaves the store, whatever its status, and its id then answers -32602 (T13). No status says "deleted".';

/** How a task may end once it is running: every terminal status, from either live one (T9). */
const ends = {
  'job.returnedResult': {
    target: 'completed',
    description: 'the job returned a result, isError: true included (T11)',
  },
  'job.raisedProtocolError': {
    target: 'failed',
    description:
      'a JSON-RPC error during execution; the task carries error and a statusMessage (T10)',
  },
  'job.honouredCancel': {
    target: 'cancelled',
    description: 'the job honoured tasks/cancel; a cancel is only a request (T17)',
  },
  'ttl.passed': {
    target: 'failed',
    description: 'createdAt + ttlMs passed before the task ended (T13)',
  },
} as const;

export const taskLifecycleMachine = setup({
  types: { events: {} as LifecycleEvent },
}).createMachine({
  id: 'lifecycle',
  // T7: the handle's status is typically, not necessarily, `working`; this server's always is.
  initial: 'working',
  meta: { deletion: TASK_LIFECYCLE_DELETION },
  states: {
    working: {
      description: 'the request is being processed',
      on: {
        'job.askedForInput': {
          target: 'input_required',
          description: 'the job asked for input: inputRequests (T14)',
        },
        ...ends,
      },
    },
    input_required: {
      description: 'waiting for answers to inputRequests, given with tasks/update',
      on: {
        'input.allAnswered': {
          target: 'working',
          description: 'tasks/update answered every outstanding key (T15)',
        },
        // More questions while some are still open: the task stays where it is.
        'job.askedForInput': {
          target: 'input_required',
          description: 'the job asked for more input (T14)',
        },
        ...ends,
      },
    },
    completed: { type: 'final', description: 'the job returned a result (T10, T11)' },
    failed: {
      type: 'final',
      description: 'a JSON-RPC error during execution, or its TTL passed (T10, T13)',
    },
    cancelled: { type: 'final', description: 'the job stopped on a cancel (T17)' },
  },
});

export type LifecycleSnapshot = SnapshotFrom<typeof taskLifecycleMachine>;

/** The machine's snapshot for a task stored with `status`. */
export function lifecycleSnapshot(status: TaskStatus): LifecycleSnapshot {
  return taskLifecycleMachine.resolveState({ value: status, context: {} });
}

/**
 * Where a task with `status` goes on `event`, or undefined when the machine
 * does not take that event there: an illegal move (leaving a terminal
 * status, T9), which the caller must not make.
 */
export function statusAfter(status: TaskStatus, event: LifecycleEvent): TaskStatus | undefined {
  const key = `${status} ${event.type}`;
  if (!MOVES.has(key)) {
    const snapshot = lifecycleSnapshot(status);
    const [next] = snapshot.can(event) ? transition(taskLifecycleMachine, snapshot, event) : [];
    MOVES.set(key, next?.value as TaskStatus | undefined);
  }
  return MOVES.get(key);
}

/**
 * The machine's answers so far, by status and event type. It has no context and no
 * guards, so that pair decides the move; asking the machine costs tens of microseconds,
 * and every status change of every task asks.
 */
const MOVES = new Map<string, TaskStatus | undefined>();
