/**
 * Follows tasks for one RpcClient: supplies the task machine's side effects
 * as real `tasks/get`, `tasks/update` and `tasks/cancel` requests, starts one
 * actor per task, and routes pushed `notifications/tasks` (T18) to it.
 *
 * Every tasks/* request declares the extension, whatever the page's switch
 * says for tools/call: without it the server must refuse them (T4).
 */
import { createActor, fromPromise, type Actor } from 'xstate';
import { taskMachine } from '../machines/task-machine.ts';
import { Method } from '../protocol/constants.ts';
import type { JsonRpcNotification } from '../protocol/jsonrpc.ts';
import { DetailedTaskSchema, type CreateTaskResult, type DetailedTask } from '../protocol/task.ts';
import type { InvalidResponseError } from './rpc-error.ts';
import type { RpcClient } from './rpc-client.ts';

/** A running task actor, as the UI holds it. */
export type TaskActor = Actor<typeof taskMachine>;

/** The machine with its actors bound to `client`. */
export function followingMachine(client: RpcClient): typeof taskMachine {
  return taskMachine.provide({
    actors: {
      pollTask: fromPromise<DetailedTask, { taskId: string }>(async ({ input }) => {
        const result = await client.request(Method.tasksGet, { taskId: input.taskId }, { tasks: true });
        const parsed = DetailedTaskSchema.safeParse(result);
        if (!parsed.success) {
          // No `code`: the machine treats it as transport trouble and backs off.
          const error: InvalidResponseError = { kind: 'invalid-response', message: `tasks/get result is not a task: ${parsed.error.message}` };
          throw error;
        }
        return parsed.data;
      }),
      sendUpdate: fromPromise<void, { taskId: string; inputResponses: Record<string, unknown> }>(async ({ input }) => {
        await client.request(Method.tasksUpdate, { taskId: input.taskId, inputResponses: input.inputResponses }, { tasks: true });
      }),
      sendCancel: fromPromise<void, { taskId: string }>(async ({ input }) => {
        await client.request(Method.tasksCancel, { taskId: input.taskId }, { tasks: true });
      }),
    },
  });
}

export class TaskFollower {
  readonly #machine: typeof taskMachine;
  readonly #actors = new Map<string, TaskActor>();

  constructor(client: RpcClient) {
    this.#machine = followingMachine(client);
  }

  /** Starts following a task the server just created (T7). */
  follow(task: CreateTaskResult, toolName: string): TaskActor {
    const actor = createActor(this.#machine, { input: { task, toolName } });
    this.#actors.set(task.taskId, actor);
    actor.subscribe({ complete: () => this.#actors.delete(task.taskId) });
    actor.start();
    return actor;
  }

  /**
   * Hands a pushed task report to its actor. Returns false for anything that
   * is not a valid `notifications/tasks` for a task followed here.
   */
  notify(notification: JsonRpcNotification): boolean {
    if (notification.method !== Method.notificationsTasks) return false;
    const parsed = DetailedTaskSchema.safeParse(notification.params);
    if (!parsed.success) return false;
    const actor = this.#actors.get(parsed.data.taskId);
    actor?.send({ type: 'task.notification', task: parsed.data });
    return actor !== undefined;
  }

  /** Stops every actor, e.g. when the page goes away. */
  stopAll(): void {
    for (const actor of this.#actors.values()) actor.stop();
    this.#actors.clear();
  }
}
