/**
 * Push for tasks (T18, C9): `subscriptions/listen` with
 * `params.notifications.taskIds`. The SDK's listen router drops `taskIds`
 * (docs/sdk-notes.md, "Server"), so both hosts route task listens here.
 * Each stream starts with `notifications/subscriptions/acknowledged` naming the taskIds
 * agreed to, then carries a `notifications/tasks` with the full
 * DetailedTask, exactly what `tasks/get` would answer, after every change.
 */
import { z } from 'zod';
import { ErrorCode, META, Method } from '../protocol/constants.ts';
import { declaresTasks } from '../protocol/envelope.ts';
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from '../protocol/jsonrpc.ts';
import { ownerDigest, ANONYMOUS } from './identity.ts';
import type { TaskRecord, TaskStore } from './task-store.ts';
import { missingTasksCapability, RpcFault, type TaskService } from './task-service.ts';

const ListenParams = z.looseObject({
  notifications: z.looseObject({ taskIds: z.array(z.string()).max(1000).optional() }).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});

/** Whether a request is a listen for task notifications, which this module serves. */
export function isTaskListen(request: JsonRpcRequest): boolean {
  if (request.method !== Method.subscriptionsListen) return false;
  const parsed = ListenParams.safeParse(request.params ?? {});
  return parsed.success && parsed.data.notifications?.taskIds !== undefined;
}

export interface Subscription {
  readonly id: RequestId;
  close(): void;
}

export class TaskSubscriptions {
  readonly #service: TaskService;
  readonly #store: TaskStore;
  readonly #open = new Set<Subscription>();

  constructor(service: TaskService, store: TaskStore) {
    this.#service = service;
    this.#store = store;
  }

  get openCount(): number {
    return this.#open.size;
  }

  /**
   * Opens a stream for `request`, calling `send` for each message on it.
   * Errors (no extension: -32021, T18) are sent as the response and no
   * stream opens.
   */
  async open(
    request: JsonRpcRequest,
    identity: string | undefined,
    send: (message: JsonRpcMessage) => void,
  ): Promise<Subscription | undefined> {
    const params = ListenParams.safeParse(request.params ?? {});
    const fail = (fault: RpcFault): undefined => {
      send({
        jsonrpc: '2.0',
        id: request.id,
        error: {
          code: fault.code,
          message: fault.message,
          ...(fault.data !== undefined ? { data: fault.data } : {}),
        },
      });
      return undefined;
    };
    if (!params.success)
      return fail(
        new RpcFault(
          ErrorCode.InvalidParams,
          `subscriptions/listen: ${z.prettifyError(params.error)}`,
        ),
      );
    if (!declaresTasks(params.data._meta?.[META.clientCapabilities]))
      return fail(missingTasksCapability('Task notifications'));

    const owner = await ownerDigest(identity ?? ANONYMOUS);
    const requested = params.data.notifications?.taskIds ?? [];
    // Another caller's task is not agreed to, exactly as if it did not exist (T20).
    const agreed: string[] = [];
    for (const taskId of requested) {
      const record = await this.#store.get(taskId);
      if (record && record.owner === owner) agreed.push(taskId);
    }
    const caller = { owner, declaresTasks: true };
    const meta = { [META.subscriptionId]: request.id };
    send({
      jsonrpc: '2.0',
      method: Method.subscriptionsAcknowledged,
      params: { notifications: { taskIds: agreed }, _meta: meta },
    });

    const watched = new Set(agreed);
    // Not every store write changes the task (a job's lease heartbeat does not): push only what differs.
    const lastSent = new Map<string, string>();
    const unsubscribe = this.#store.subscribe((record: TaskRecord) => {
      if (!watched.has(record.taskId)) return;
      // Read through the service so the pushed task is exactly what tasks/get returns now.
      this.#service.getTask(caller, record.taskId).then(
        (task) => {
          const text = JSON.stringify(task);
          if (lastSent.get(record.taskId) === text) return;
          lastSent.set(record.taskId, text);
          send({
            jsonrpc: '2.0',
            method: Method.notificationsTasks,
            params: { ...task, _meta: { ...objectOr(task['_meta']), ...meta } },
          });
        },
        () => watched.delete(record.taskId),
      );
    });
    const subscription: Subscription = {
      id: request.id,
      close: () => {
        unsubscribe();
        this.#open.delete(subscription);
      },
    };
    this.#open.add(subscription);
    return subscription;
  }

  closeAll(): void {
    for (const subscription of [...this.#open]) subscription.close();
  }
}

function objectOr(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
