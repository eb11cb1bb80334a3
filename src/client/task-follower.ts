/**
 * Follows tasks for one RpcClient: supplies the task machine's side effects
 * as real `tasks/get`, `tasks/update` and `tasks/cancel` requests, starts one
 * actor per task, and routes pushed `notifications/tasks` (T18) to it.
 *
 * Every tasks/* request declares the extension, whatever the page's switch
 * says for tools/call: without it the server must refuse them (T4).
 */
import { createActor, fromPromise, type Actor, type ActorOptions } from 'xstate';
import { pollsBy, taskMachine, type TaskResume } from '../machines/task-machine.ts';
import { Method } from '../protocol/constants.ts';
import type { JsonRpcNotification } from '../protocol/jsonrpc.ts';
import { DetailedTaskSchema, type CreateTaskResult, type DetailedTask } from '../protocol/task.ts';
import { getTask } from './task-lookup.ts';
import type { ConnectionInfo, ConnectionState, RpcClient } from './rpc-client.ts';

/** A running task actor, as the UI holds it. */
export type TaskActor = Actor<typeof taskMachine>;

/**
 * With no answer after this long, a tasks/* request counts as lost and is
 * re-issued under a new id (C8): on a lossy network an answer may never come.
 * Safe because tasks/get reads, and tasks/update and tasks/cancel are
 * idempotent (T15 ignores answered keys, T17).
 */
export const REQUEST_TIMEOUT_MS = 5000;

export interface FollowerOptions {
  requestTimeoutMs?: number;
  /** Timers of the task actors (xstate's SimulatedClock in tests). */
  clock?: ActorOptions<typeof taskMachine>['clock'];
  /** Wall clock for TTL checks (tests). */
  now?: () => number;
  /** Called whenever the set of tasks still followed changes. */
  onchange?: (taskIds: string[]) => void;
}

/** The machine with its actors bound to `client`. */
export function followingMachine(
  client: RpcClient,
  requestTimeoutMs = REQUEST_TIMEOUT_MS,
): typeof taskMachine {
  const options = { tasks: true, timeoutMs: requestTimeoutMs };
  return taskMachine.provide({
    actions: {
      sendPoll: pollsBy((taskId, resent) =>
        getTask(client, taskId, { timeoutMs: requestTimeoutMs, onResend: resent }),
      ),
    },
    actors: {
      sendUpdate: fromPromise<void, { taskId: string; inputResponses: Record<string, unknown> }>(
        async ({ input }) => {
          await client.request(
            Method.tasksUpdate,
            { taskId: input.taskId, inputResponses: input.inputResponses },
            options,
          );
        },
      ),
      sendCancel: fromPromise<void, { taskId: string }>(async ({ input }) => {
        await client.request(Method.tasksCancel, { taskId: input.taskId }, options);
      }),
    },
  });
}

export class TaskFollower {
  readonly #machine: typeof taskMachine;
  readonly #actors = new Map<string, TaskActor>();
  readonly #options: FollowerOptions;
  /** The link as the client last reported it; tasks followed while it is down start knowing that. */
  #link: { up: true } | { up: false; reason: string; attempt: number; retryAt?: number } = {
    up: true,
  };

  constructor(client: RpcClient, options: FollowerOptions = {}) {
    this.#options = options;
    this.#machine = followingMachine(client, options.requestTimeoutMs);
  }

  /**
   * Starts following a task the server just created (T7), or, given the
   * facts a page kept (`resume`) and its last report, one followed before a reload (T12).
   */
  follow(task: CreateTaskResult | DetailedTask, toolName: string, resume?: TaskResume): TaskActor {
    const { clock, now } = this.#options;
    const input = { task, toolName, ...(now ? { now } : {}), ...(resume ? { resume } : {}) };
    const actor = createActor(this.#machine, { input, ...(clock ? { clock } : {}) });
    this.#actors.set(task.taskId, actor);
    actor.subscribe({
      complete: () => {
        this.#actors.delete(task.taskId);
        this.#options.onchange?.(this.taskIds);
      },
    });
    actor.start();
    // A link can break between the CreateTaskResult and this call (a fault "right after" it).
    if (!this.#link.up) this.#tell(actor, this.#link);
    this.#options.onchange?.(this.taskIds);
    return actor;
  }

  /** The taskIds followed now (actors not yet at an outcome). */
  get taskIds(): string[] {
    return [...this.#actors.keys()];
  }

  /**
   * Feeds the client's connection state to every task actor, so each shows
   * `reconnecting` (and holds due polls in `offline`) instead of polling
   * into a dead link, then polls the same taskId when it is back (C8, M3).
   */
  connectionChanged(state: ConnectionState, info?: ConnectionInfo): void {
    if (state === 'open') {
      const wasDown = !this.#link.up;
      this.#link = { up: true };
      if (wasDown)
        for (const actor of this.#actors.values()) actor.send({ type: 'connection.restored' });
      return;
    }
    if (state === 'closed') return;
    const previous = this.#link;
    const reason = info?.reason ?? (previous.up ? 'link down' : previous.reason);
    this.#link = {
      up: false,
      reason,
      attempt: info?.attempt ?? 0,
      ...(info?.retryAt !== undefined ? { retryAt: info.retryAt } : {}),
    };
    for (const actor of this.#actors.values()) {
      if (previous.up) actor.send({ type: 'connection.lost', reason });
      if (info?.retryAt !== undefined)
        actor.send({ type: 'connection.retrying', attempt: info.attempt, retryAt: info.retryAt });
    }
  }

  #tell(actor: TaskActor, link: { reason: string; attempt: number; retryAt?: number }): void {
    actor.send({ type: 'connection.lost', reason: link.reason });
    if (link.retryAt !== undefined)
      actor.send({ type: 'connection.retrying', attempt: link.attempt, retryAt: link.retryAt });
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
    this.#options.onchange?.([]);
  }
}
