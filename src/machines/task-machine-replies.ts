/**
 * What the task machine makes of what comes back: a report (polled or
 * pushed) merged into its context, and a rejection told apart as a
 * protocol error or transport trouble. Pure functions, no state.
 */
import { errorMessage } from '../protocol/error-message.ts';
import type { DetailedTask } from '../protocol/task.ts';
import type { TaskMachineContext } from './task-machine-context.ts';

/**
 * The JSON-RPC error code a rejection carries, or `undefined` for transport
 * trouble. Matched structurally: errors cross postMessage as plain objects.
 */
export function rpcErrorCode(e: unknown): number | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const { code, message } = e as { code?: unknown; message?: unknown };
  return typeof code === 'number' && Number.isInteger(code) && typeof message === 'string'
    ? code
    : undefined;
}

/** The error as the card shows it: its JSON-RPC code, if it has one, and its message. */
export function describeError(e: unknown): { code?: number; message: string } {
  const code = rpcErrorCode(e);
  const message = errorMessage(e);
  return code === undefined ? { message } : { code, message };
}

/**
 * Polls and pushes can overtake each other (different server nodes, T18), so
 * an older report must not undo a newer one; one for another task is a bug upstream.
 */
export function isCurrent(context: TaskMachineContext, report: DetailedTask): boolean {
  if (report.taskId !== context.taskId) return false;
  // Most polls repeat the last timestamp: the same string is the same instant, no parsing.
  const last = context.task.lastUpdatedAt;
  return report.lastUpdatedAt === last || Date.parse(report.lastUpdatedAt) >= Date.parse(last);
}

/** The context after a report: the task as it stands, and the input requests still to ask (T14). */
export function applyReport(
  context: TaskMachineContext,
  report: DetailedTask,
): Partial<TaskMachineContext> {
  if (!isCurrent(context, report)) return {};
  // Every poll repeats all outstanding requests (T14): keep the object already
  // shown for a key, add unseen keys, drop keys the server no longer lists.
  // fromEntries, not `obj[key] =`: keys come from the server ("__proto__").
  const requests = Object.entries(report.inputRequests ?? {});
  // Nothing asked before or now (most polls): the same object, so readers that compare see no change.
  if (requests.length === 0 && Object.keys(context.pendingInputs).length === 0)
    return { task: report };
  const pendingInputs = Object.fromEntries(
    requests
      .filter(([key]) => !context.answeredKeys.includes(key))
      .map(([key, request]) => [
        key,
        Object.hasOwn(context.pendingInputs, key) ? context.pendingInputs[key]! : request,
      ]),
  );
  return { task: report, pendingInputs };
}
