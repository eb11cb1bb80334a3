/**
 * What the page has heard about each followed task, from the wire and the
 * fault log: the last report and when it came (and from which server
 * worker), the faults that hit the task since, how many `tasks/get` went
 * out for it, a cancel acknowledged while the job carried on, and, once
 * the server answers `-32602`, why (`gone-cause.ts`). Plain data, one
 * immutable snapshot per task, with listeners per task so a card redraws
 * only for its own news.
 */
import type { WireEntry } from '../client/rpc-client.ts';
import { WireAnnotator, type WireRow } from '../client/wire-annotation.ts';
import { ErrorCode, Method } from '../protocol/constants.ts';
import { isTerminal, type TaskStatus } from '../protocol/task.ts';
import type { TaskStoreKind } from '../protocol/worker-control.ts';
import type { FaultEvent, FaultLog } from '../net/fault-log.ts';
import type { Emitter } from './emitter.ts';
import { taskIdOf } from './followed-tasks.ts';
import type { SessionEvents } from './session-events.ts';
import { noticeOf, type FaultNotice } from './fault-notices.ts';
import {
  UNKNOWN_LEAD,
  goneCause,
  goneCauseText,
  type GoneCause,
  type GoneFacts,
} from './gone-cause.ts';

/** The last report the page's client received about a task. */
export interface HeardReport {
  readonly status: TaskStatus;
  readonly at: number;
  readonly statusMessage: string | undefined;
  /** The server worker that sent it. */
  readonly generation: number;
  /** The node that sent it, behind the page's balancer. */
  readonly node?: number | undefined;
  /** Where that worker kept its tasks, as far as the page knew. */
  readonly store: TaskStoreKind | undefined;
  /** When its TTL runs out (epoch ms), if it has one. */
  readonly expiresAt: number | undefined;
}

export interface TaskNewsSnapshot {
  readonly lastHeard: HeardReport | undefined;
  /** Faults that hit the task while it ran, oldest first. */
  readonly faults: readonly FaultNotice[];
  /** Every `tasks/get` the page's client sent for it, re-issues included. */
  readonly tasksGetSent: number;
  /** Those of them sent again under a new id after a broken link or a timeout (C8). */
  readonly tasksGetReissued: number;
  /** When a `tasks/cancel` for it was acknowledged. */
  readonly cancelAckedAt: number | undefined;
  /** A report after that acknowledgement still said the task ran: the job did not stop for the cancel (T17). */
  readonly ranOnAfterCancel: boolean;
  /** Why the server answered `-32602`, once it did. */
  readonly gone: GoneCause | undefined;
}

/** The news of a task nothing was heard about yet. */
export const NO_NEWS: TaskNewsSnapshot = {
  lastHeard: undefined,
  faults: [],
  tasksGetSent: 0,
  tasksGetReissued: 0,
  cancelAckedAt: undefined,
  ranOnAfterCancel: false,
  gone: undefined,
};

/** What the tracker asks the session about the present. */
export interface TaskNewsContext {
  /** The running server worker's generation (1, +1 per restart). */
  generation(): number;
  /** Where the server keeps its tasks now, as far as the page knows. */
  store(): TaskStoreKind | undefined;
  /** The identity the page's own client asks as. */
  identity: string;
  /** The identity a named connection was opened as. */
  identityOf(connection: string): string | undefined;
  /** The `seq` of the last wire entry logged so far. */
  lastSeq(): number;
  /** The followed tasks still running. */
  liveTaskIds(): readonly string[];
}

export type TaskOrigin = GoneFacts['origin'];

/** Faults kept per task at most: the newest, which are the ones a card shows. */
const FAULTS_KEPT = 20;

/** `value[key]` when `value` is an object, read without trusting its shape. */
function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
}

function numberField(value: unknown, key: string): number | undefined {
  const found = field(value, key);
  return typeof found === 'number' ? found : undefined;
}

/** The task fields of a result or a notification (`result`, or `params`). */
function taskFields(row: WireRow): unknown {
  return field(row.message, row.kind === 'notification' ? 'params' : 'result');
}

function expiryOf(fields: unknown): number | undefined {
  const ttl = numberField(fields, 'ttlMs');
  const created = field(fields, 'createdAt');
  if (ttl === undefined || typeof created !== 'string') return undefined;
  const at = Date.parse(created);
  return Number.isNaN(at) ? undefined : at + ttl;
}

function errorCodeOf(row: WireRow): number | undefined {
  return numberField(field(row.message, 'error'), 'code');
}

export class TaskNews {
  readonly #context: TaskNewsContext;
  /**
   * Annotates every wire entry of the session, in order, once: the page's
   * wire log reads its rows from here too (each row is kept per entry).
   */
  readonly annotator = new WireAnnotator();
  readonly #news = new Map<string, TaskNewsSnapshot>();
  readonly #origins = new Map<string, TaskOrigin>();
  /** Tasks created over another connection: which one, as whom. */
  readonly #createdOver = new Map<string, { connection: string; identity: string }>();
  readonly #listeners = new Map<string, Set<() => void>>();
  #notices = 0;

  constructor(context: TaskNewsContext) {
    this.#context = context;
  }

  /** The news about one task (an empty record before anything was heard). */
  of(taskId: string): TaskNewsSnapshot {
    return this.#news.get(taskId) ?? NO_NEWS;
  }

  /** Calls `listener` whenever `taskId`'s news changes; returns the unsubscribe. */
  onChange(taskId: string, listener: () => void): () => void {
    let set = this.#listeners.get(taskId);
    if (!set) this.#listeners.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(taskId);
    };
  }

  /**
   * Hears a session's wire entries and resumed tasks, and its network's
   * faults, telling the session of each fault notice (`fault`).
   */
  listen(events: Emitter<SessionEvents>, log: FaultLog): void {
    events.on('wire', (entry) => this.wire(entry));
    events.on('followed', ({ actor, restored }) => {
      if (restored) this.followed(taskIdOf(actor), 'resumed');
    });
    log.subscribe((event) => {
      const notice = this.faultEvent(event);
      if (notice) events.emit('fault', notice);
    });
  }

  /**
   * How the page came to follow `taskId`, when the wire does not say: a
   * handle the page's client received is seen there, and a task followed
   * with neither a handle nor this call was followed by id.
   */
  followed(taskId: string, origin: TaskOrigin): void {
    this.#origins.set(taskId, origin);
  }

  /** The task left the page: its news goes too. */
  forget(taskId: string): void {
    this.#news.delete(taskId);
    this.#origins.delete(taskId);
    this.#createdOver.delete(taskId);
  }

  /** Why a follow by id of `taskId` failed with `-32602`, in words, as far as the page can tell. */
  explainUnknown(taskId: string, at: number): string {
    return `${UNKNOWN_LEAD} ${goneCauseText(goneCause(this.#facts(taskId, 'by-id', at)))}`;
  }

  /** A fault event as a notice placed after the last wire entry, touching every running task; undefined if it breaks nothing. */
  faultEvent(event: FaultEvent): FaultNotice | undefined {
    const said = noticeOf(event, this.#context.store());
    if (!said) return undefined;
    const notice: FaultNotice = {
      id: ++this.#notices,
      afterSeq: this.#context.lastSeq(),
      at: event.at,
      ...said,
      taskIds: this.#context.liveTaskIds(),
    };
    for (const taskId of notice.taskIds)
      this.#update(taskId, (news) => ({ faults: [...news.faults, notice].slice(-FAULTS_KEPT) }));
    return notice;
  }

  /** One wire entry, in order (every client of the page). */
  wire(entry: WireEntry): void {
    const row = this.annotator.annotate(entry);
    const taskId = row.taskId;
    if (taskId === undefined || row.net?.lost !== undefined) return;
    const own = row.connection === undefined;
    if (row.direction === 'out') {
      if (own && row.kind === 'request' && row.method === Method.tasksGet)
        this.#update(taskId, (news) => ({
          tasksGetSent: news.tasksGetSent + 1,
          tasksGetReissued: news.tasksGetReissued + (row.reissueOf !== undefined ? 1 : 0),
        }));
      return;
    }
    if (own && row.kind === 'result' && row.resultType === 'task')
      this.#origins.set(taskId, 'handle');
    if (!own) {
      if (row.kind === 'result' && row.resultType === 'task') {
        const connection = row.connection ?? '';
        const identity = this.#context.identityOf(connection) ?? connection;
        this.#createdOver.set(taskId, { connection, identity });
      }
      return;
    }
    if (row.kind === 'error' && row.method === Method.tasksGet) {
      if (errorCodeOf(row) !== ErrorCode.InvalidParams || this.of(taskId).gone) return;
      this.#update(taskId, () => ({
        gone: goneCause(
          this.#facts(taskId, this.#origins.get(taskId) ?? 'by-id', row.at, row.node),
        ),
      }));
      return;
    }
    if (row.kind === 'result' && row.method === Method.tasksCancel) {
      this.#update(taskId, () => ({ cancelAckedAt: row.at }));
      return;
    }
    if (row.status === undefined || (row.kind !== 'result' && row.kind !== 'notification')) return;
    const fields = taskFields(row);
    const statusMessage = field(fields, 'statusMessage');
    const status = row.status;
    this.#update(taskId, (news) => ({
      lastHeard: {
        status,
        at: row.at,
        statusMessage: typeof statusMessage === 'string' ? statusMessage : undefined,
        generation: this.#context.generation(),
        node: row.node,
        store: this.#context.store(),
        expiresAt: expiryOf(fields),
      },
      ranOnAfterCancel:
        news.ranOnAfterCancel || (news.cancelAckedAt !== undefined && !isTerminal(status)),
    }));
  }

  #facts(taskId: string, origin: TaskOrigin, at: number, answeredOn?: number): GoneFacts {
    const heard = this.of(taskId).lastHeard;
    return {
      answeredBy: this.#context.generation(),
      heardFrom: heard?.generation,
      nodes:
        answeredOn === undefined ? undefined : { heardFrom: heard?.node, answeredBy: answeredOn },
      store: heard ? heard.store : this.#context.store(),
      goneAt: at,
      expiresAt: heard?.expiresAt,
      origin,
      askedAs: this.#context.identity,
      createdOver: this.#createdOver.get(taskId),
    };
  }

  #update(taskId: string, change: (news: TaskNewsSnapshot) => Partial<TaskNewsSnapshot>): void {
    const news = this.of(taskId);
    this.#news.set(taskId, { ...news, ...change(news) });
    const listeners = this.#listeners.get(taskId);
    if (listeners) for (const listener of [...listeners]) listener();
  }
}
