/**
 * The x-ray, on the page's side: what the server's task store holds now,
 * task by task, as the server reports it beside the MCP wire
 * (`task-stored`, `task-deleted` in src/protocol/worker-control.ts). No MCP
 * client can know this; the page shows it next to what its client last saw
 * (its last `tasks/get` reply or notification), and between polls the two
 * may disagree: a client learns of a change up to `pollIntervalMs` late (T12).
 *
 * When no server is running, or a fresh one has not said what its store
 * holds yet, there is no x-ray, and the reading says so rather than keep
 * showing what a dead server held.
 */
import type { TaskStatus } from '../protocol/task.ts';
import type { WorkerEvent } from '../protocol/worker-control.ts';
import type { Emitter } from './emitter.ts';
import type { ServerEndpoint } from './server-endpoint.ts';
import type { SessionEvents } from './session-events.ts';

/** What the x-ray shows for one task. */
export type StoredTaskReading =
  /** The store holds the task with this status, unchanged since `since` (epoch ms, the record's `lastUpdatedAt`). */
  | { kind: 'stored'; status: TaskStatus; since: number }
  /** The store holds no such task: deleted (T13), or never there (a fresh in-memory server, another tab's). */
  | { kind: 'not-stored'; deleted: boolean }
  /** No x-ray: the server is down, a fresh one has not reported its store yet, or the page does not run it. */
  | { kind: 'no-xray'; reason: 'server down' | 'server starting' | 'not our server' };

export class ServerXray {
  readonly #events: Pick<Emitter<SessionEvents>, 'emit'>;
  readonly #stored = new Map<string, { status: TaskStatus; since: number }>();
  readonly #deleted = new Set<string>();
  #state: 'down' | 'starting' | 'live' = 'down';
  /** The server the readings are from (its generation): a new one starts with nothing known. */
  #generation = 0;
  /** The learner's own server: it never reports its store, so there is never an x-ray. */
  readonly #remote: boolean;

  /**
   * Listens to what `endpoint` says, and to the session's `server` events
   * (the server started or stopped); emits `xray` with the task whose
   * reading changed, or with none when every reading may have.
   */
  constructor(
    endpoint: Pick<ServerEndpoint, 'onEvent' | 'remote'>,
    events: Pick<Emitter<SessionEvents>, 'on' | 'emit'>,
  ) {
    this.#events = events;
    this.#remote = endpoint.remote === true;
    endpoint.onEvent((event) => this.heard(event));
    events.on('server', ({ running, generation }) => this.serverChanged(running, generation));
  }

  /** What the x-ray shows for `taskId` now. */
  reading(taskId: string): StoredTaskReading {
    if (this.#remote) return { kind: 'no-xray', reason: 'not our server' };
    if (this.#state !== 'live') {
      const stored = this.#state === 'starting' ? this.#stored.get(taskId) : undefined;
      // Tasks a fresh server reports before `ready` are real news; the rest is not known yet.
      if (stored) return { kind: 'stored', ...stored };
      return {
        kind: 'no-xray',
        reason: this.#state === 'down' ? 'server down' : 'server starting',
      };
    }
    const stored = this.#stored.get(taskId);
    if (stored) return { kind: 'stored', ...stored };
    return { kind: 'not-stored', deleted: this.#deleted.has(taskId) };
  }

  /** The server is up (`generation`) or down: a new server's store is read afresh, a dead one's forgotten. */
  serverChanged(running: boolean, generation: number): void {
    if (!running) {
      if (this.#state === 'down') return;
      this.#state = 'down';
    } else {
      if (this.#state !== 'down' && generation === this.#generation) return;
      this.#state = 'starting';
      this.#generation = generation;
    }
    this.#stored.clear();
    this.#deleted.clear();
    this.#events.emit('xray', { taskId: undefined });
  }

  /** What the running server said (events of a server that has gone are filtered out before here). */
  heard(event: WorkerEvent): void {
    if (this.#state === 'down') return;
    switch (event.type) {
      case 'task-stored':
        this.#deleted.delete(event.taskId);
        this.#stored.set(event.taskId, { status: event.status, since: event.lastUpdatedAt });
        this.#events.emit('xray', { taskId: event.taskId });
        return;
      case 'task-deleted':
        this.#stored.delete(event.taskId);
        this.#deleted.add(event.taskId);
        this.#events.emit('xray', { taskId: event.taskId });
        return;
      case 'ready':
        this.#state = 'live';
        this.#events.emit('xray', { taskId: undefined });
        return;
      case 'storage-error':
        return;
    }
  }
}
