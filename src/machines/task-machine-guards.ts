/**
 * The task machine's guards: what each of its choices asks of the context
 * or the event. Plain functions of `{ context, event }` (and static or
 * event-derived params), so each reads as the rule it checks.
 */
import { ErrorCode } from '../protocol/constants.ts';
import type { TaskStatus } from '../protocol/task.ts';
import type { TaskMachineContext, TaskMachineEvent } from './task-machine-context.ts';
import { isCurrent, rpcErrorCode } from './task-machine-replies.ts';
import { expiresAt, pollIntervalMs } from './task-machine-timing.ts';

interface GuardArgs {
  context: TaskMachineContext;
  event: TaskMachineEvent;
}

const hasUnsent = ({ context }: GuardArgs) => Object.keys(context.unsent).length > 0;
const isProtocolError = (_: GuardArgs, params: { error: unknown }) =>
  rpcErrorCode(params.error) !== undefined;

export const taskMachineGuards = {
  statusIs: ({ context }: GuardArgs, params: { status: TaskStatus }) =>
    context.task.status === params.status,
  // T13: the server may drop the task after createdAt + ttlMs. While the link is
  // down there is no asking: one interval of grace, then the task is given up.
  ttlPassed: ({ context }: GuardArgs) => {
    const expiry = expiresAt(context);
    return expiry !== undefined && context.now() > expiry + pollIntervalMs(context);
  },
  // With the link up, the server has the last word: a poll sent after the TTL
  // sees the `failed` it recorded at expiry, or -32602 once it purged the task.
  // Only a server still saying "working" to that poll is given up on here.
  askedAfterTtl: ({ context }: GuardArgs) => {
    const expiry = expiresAt(context);
    return (
      expiry !== undefined &&
      context.lastPollSentAt !== undefined &&
      context.lastPollSentAt > expiry
    );
  },
  intervalChanges: ({ context, event }: GuardArgs) =>
    event.type === 'task.notification' &&
    isCurrent(context, event.task) &&
    pollIntervalMs(event) !== pollIntervalMs(context),
  answersPending: ({ context, event }: GuardArgs) =>
    event.type === 'task.answer' &&
    Object.keys(event.responses).some((key) => Object.hasOwn(context.pendingInputs, key)),
  hasUnsent,
  cancelIntended: ({ context }: GuardArgs) => context.cancelRequested,
  // The link region keeps `context.link` exactly while it is `reconnecting` (cleared on entering
  // `online`), so this reads one field instead of xstate's `stateIn` lookup of the state node.
  linkDown: ({ context }: GuardArgs) => context.link !== undefined,
  isGone: (_: GuardArgs, params: { error: unknown }) =>
    rpcErrorCode(params.error) === ErrorCode.InvalidParams,
  isProtocolError,
  // A refused tasks/update drops its answers; those given meanwhile still go out (T15).
  refusedWithUnsent: (args: GuardArgs, params: { error: unknown }) =>
    isProtocolError(args, params) && hasUnsent(args),
};
