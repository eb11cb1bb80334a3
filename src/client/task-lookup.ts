/**
 * Looks a task up by its id alone, as a second tab or a reloaded page does
 * (M5): a `tasks/get` declaring the extension (T4), validated, never cast.
 * Unknown, expired and another identity's ids all fail alike, with -32602 (T13, T20).
 */
import { Method } from '../protocol/constants.ts';
import { DetailedTaskSchema, type DetailedTask } from '../protocol/task.ts';
import type { RpcClient } from './rpc-client.ts';
import type { InvalidResponseError } from './rpc-error.ts';

/**
 * One `tasks/get`, its answer validated as a DetailedTask. A result of
 * another shape rejects with an `InvalidResponseError` (no `code`: the task
 * machine treats it as transport trouble and backs off).
 */
export async function getTask(
  client: RpcClient,
  taskId: string,
  options: { timeoutMs?: number; onResend?: () => void } = {},
): Promise<DetailedTask> {
  const result = await client.request(Method.tasksGet, { taskId }, { ...options, tasks: true });
  const parsed = DetailedTaskSchema.safeParse(result);
  if (!parsed.success) {
    const error: InvalidResponseError = {
      kind: 'invalid-response',
      message: `tasks/get result is not a task: ${parsed.error.message}`,
    };
    throw error;
  }
  return parsed.data;
}
