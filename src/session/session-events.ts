/**
 * What a page session tells its listeners, by event name. Snapshots are
 * plain immutable values: a listener keeps the latest, or reads the
 * session's getter again.
 */
import type { ConnectionInfo, ConnectionState, WireEntry } from '../client/rpc-client.ts';
import type { PushStatus } from '../client/task-subscription.ts';
import type { ToolInfo } from '../client/tool-catalog.ts';
import type { PacketUpdate } from '../net/net-marks.ts';
import type { StorageProblem } from '../store/page-store.ts';
import type { FaultNotice } from './fault-notices.ts';
import type { FollowedTasksEvents } from './followed-tasks.ts';
import type { ServerStoreStatus } from './server-store.ts';

export interface ConnectionStatus {
  readonly state: ConnectionState;
  readonly detail: string | undefined;
  /** Reconnect attempts and when the next one starts, for the backoff countdown. */
  readonly info: ConnectionInfo;
}

export interface ServerStatus {
  readonly running: boolean;
  /** 1 for the first server, +1 per restart. */
  readonly generation: number;
}

export interface StorageStatus {
  readonly serverStore: ServerStoreStatus;
  /** What is wrong with the page's own storage, if anything. */
  readonly problem: StorageProblem | undefined;
  /** "Clear everything" is under way; `blocked` while another tab holds the server's database. */
  readonly clearing: 'no' | 'working' | 'blocked';
}

export interface ToolsStatus {
  readonly tools: readonly ToolInfo[];
  readonly error: string | undefined;
}

/** A listener of one kind of session event. */
export type SessionListener<K extends keyof SessionEvents> = (payload: SessionEvents[K]) => void;

export interface SessionEvents extends FollowedTasksEvents {
  connection: ConnectionStatus;
  server: ServerStatus;
  storage: StorageStatus;
  tools: ToolsStatus;
  /** Whether each tools/call declares the tasks extension (T1). */
  declareTasks: boolean;
  push: PushStatus;
  /** One message crossed a link (any of the session's clients), in order. */
  wire: WireEntry;
  /** A fault broke the link or the server (drop, kill, restart, offline), placed after the last wire entry. */
  fault: FaultNotice;
  /** Later news about a sent message: it arrived, or was lost in flight. */
  packet: PacketUpdate;
  /** The wire log kept from before the reload, oldest first; once, before anything new. */
  'wire-restored': readonly WireEntry[];
  /** The wire log starts over (a scenario's clean page, "Clear everything"). */
  'wire-cleared': undefined;
  /** A scenario asked for a clean page: views drop what they show beyond the session (call results). */
  reset: undefined;
  /** Restoring after a load began (wire log first, then tasks). */
  'restore-started': undefined;
  /** Every stored task has an actor again. */
  'tasks-resumed': { count: number };
  /** The x-ray's reading of one task (`taskId`), or of every task (undefined), changed: read `session.xray`. */
  xray: { taskId: string | undefined };
}
