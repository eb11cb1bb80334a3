/**
 * Push as well as poll (T18, C9): while switched on, keeps one
 * `subscriptions/listen` stream open for the tasks followed now. It is
 * re-opened with the new set when a task is added, and after every
 * reconnect (a stream dies with its link and is never resumed, C8). Pushed
 * `notifications/tasks` go to the task machines by the caller; polling never
 * stops, so a dropped stream costs nothing but latency.
 */
import { META, Method } from '../protocol/constants.ts';
import type { JsonRpcNotification } from '../protocol/jsonrpc.ts';
import { realScheduler, type Scheduler } from '../net/scheduler.ts';
import type { ConnectionState, RpcClient } from './rpc-client.ts';
import type { StreamHandle } from './rpc-streams.ts';
import type { CallError } from './rpc-error.ts';

export type PushStatus =
  | { state: 'off' }
  /** On, with no task to listen to. */
  | { state: 'idle' }
  /** On; the link is down, so the stream is gone until the client reconnects. */
  | { state: 'waiting'; reason: string }
  /** `subscriptions/listen` sent; no acknowledgement yet. */
  | { state: 'opening'; id: number; taskIds: readonly string[] }
  | {
      state: 'open';
      id: number;
      taskIds: readonly string[];
      agreed: readonly string[];
      pushes: number;
    }
  /** Dropped on purpose; polling carries on. Re-opened after a reconnect or when a task is added. */
  | { state: 'dropped'; reason: string }
  | { state: 'refused'; code?: number; message: string };

export interface TaskSubscriptionOptions {
  onstatus?: (status: PushStatus) => void;
  scheduler?: Scheduler;
  /** A listen with no acknowledgement after this long was probably lost: open it again. */
  ackTimeoutMs?: number;
}

const DEFAULT_ACK_TIMEOUT_MS = 5000;

function metaOf(notification: JsonRpcNotification): Record<string, unknown> | undefined {
  const meta = notification.params?.['_meta'];
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
}

export class TaskSubscription {
  readonly #client: RpcClient;
  readonly #options: TaskSubscriptionOptions;
  readonly #scheduler: Scheduler;
  #enabled = false;
  #linkUp: boolean;
  #taskIds: readonly string[] = [];
  #stream: StreamHandle | undefined;
  #streamTaskIds: ReadonlySet<string> = new Set();
  #status: PushStatus = { state: 'off' };
  #ackTimer: unknown;

  constructor(client: RpcClient, options: TaskSubscriptionOptions = {}) {
    this.#client = client;
    this.#options = options;
    this.#scheduler = options.scheduler ?? realScheduler;
    this.#linkUp = client.state === 'open';
  }

  get status(): PushStatus {
    return this.#status;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  setEnabled(on: boolean): void {
    if (on === this.#enabled) return;
    this.#enabled = on;
    if (on) this.#open();
    else this.#end({ state: 'off' }, 'push switched off');
  }

  /** The taskIds followed now; a new one re-opens the stream with the whole set. */
  setTaskIds(taskIds: readonly string[]): void {
    this.#taskIds = [...taskIds];
    if (!this.#enabled) return;
    if (taskIds.length === 0) {
      this.#end({ state: 'idle' }, 'no task left to listen to');
      return;
    }
    const added = taskIds.some((id) => !this.#streamTaskIds.has(id));
    if (added || this.#status.state === 'idle') this.#open();
  }

  connectionChanged(state: ConnectionState): void {
    const up = state === 'open';
    if (up === this.#linkUp) return;
    this.#linkUp = up;
    if (up && this.#enabled) this.#open();
  }

  /** Ends the stream on purpose, as a broken stream would end; polling carries on. */
  drop(reason = 'stream dropped'): void {
    if (!this.#stream) return;
    this.#end({ state: 'dropped', reason }, reason);
  }

  /**
   * Reads an acknowledgement or push on the current stream. Returns true when
   * it was one; the caller still hands every `notifications/tasks` to the
   * machines (a push on an older stream is just as true, T18).
   */
  handle(notification: JsonRpcNotification): boolean {
    const stream = this.#stream;
    if (!stream || metaOf(notification)?.[META.subscriptionId] !== stream.id) return false;
    const status = this.#status;
    const taskIds = [...this.#streamTaskIds];
    if (notification.method === Method.subscriptionsAcknowledged) {
      this.#scheduler.clearTimeout(this.#ackTimer);
      const notifications = notification.params?.['notifications'];
      const agreed =
        typeof notifications === 'object' && notifications !== null
          ? (notifications as { taskIds?: unknown }).taskIds
          : undefined;
      this.#set({
        state: 'open',
        id: stream.id,
        taskIds,
        agreed: Array.isArray(agreed) ? agreed.filter((id) => typeof id === 'string') : [],
        pushes: status.state === 'open' ? status.pushes : 0,
      });
      return true;
    }
    if (notification.method === Method.notificationsTasks) {
      // A push proves the stream is up even if its acknowledgement was lost.
      this.#scheduler.clearTimeout(this.#ackTimer);
      this.#set(
        status.state === 'open'
          ? { ...status, pushes: status.pushes + 1 }
          : { state: 'open', id: stream.id, taskIds, agreed: taskIds, pushes: 1 },
      );
      return true;
    }
    return false;
  }

  #open(): void {
    if (!this.#enabled) return;
    if (!this.#linkUp || this.#client.state !== 'open') {
      this.#end(
        { state: 'waiting', reason: 'the link is down; re-opened after the reconnect' },
        'link down',
      );
      return;
    }
    if (this.#taskIds.length === 0) {
      this.#end({ state: 'idle' }, 'no task left to listen to');
      return;
    }
    this.#closeStream('re-opened with a new set of tasks');
    const taskIds = [...this.#taskIds];
    const stream = this.#client.openStream(
      Method.subscriptionsListen,
      { notifications: { taskIds } },
      {
        tasks: true,
        onerror: (error: CallError) => {
          if (this.#stream !== stream) return;
          this.#stream = undefined;
          this.#set({
            state: 'refused',
            ...('code' in error ? { code: error.code } : {}),
            message: error.message,
          });
        },
        onclose: (reason) => {
          if (this.#stream !== stream) return;
          this.#stream = undefined;
          this.#scheduler.clearTimeout(this.#ackTimer);
          if (this.#status.state !== 'refused')
            this.#set(this.#enabled ? { state: 'waiting', reason } : { state: 'off' });
        },
      },
    );
    this.#stream = stream;
    this.#streamTaskIds = new Set(taskIds);
    this.#set({ state: 'opening', id: stream.id, taskIds });
    this.#scheduler.clearTimeout(this.#ackTimer);
    this.#ackTimer = this.#scheduler.setTimeout(() => {
      if (this.#stream === stream && this.#status.state === 'opening') this.#open();
    }, this.#options.ackTimeoutMs ?? DEFAULT_ACK_TIMEOUT_MS);
  }

  #closeStream(reason: string): void {
    const stream = this.#stream;
    this.#stream = undefined;
    this.#streamTaskIds = new Set();
    this.#scheduler.clearTimeout(this.#ackTimer);
    stream?.close(reason);
  }

  #end(status: PushStatus, reason: string): void {
    this.#closeStream(reason);
    this.#set(status);
  }

  #set(status: PushStatus): void {
    this.#status = status;
    this.#options.onstatus?.(status);
  }
}
