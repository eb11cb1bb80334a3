/**
 * The faults a learner causes or arms (drop, kill, restart, offline), as
 * notices placed among the wire log's messages: the network's fault log
 * knows when each happened, and the session knows which wire entry came
 * last and which followed tasks were still running. The wire log, the
 * sequence view and the task cards all show these same notices.
 */
import type { FaultEvent } from '../net/fault-log.ts';
import type { TaskStoreKind } from '../protocol/worker-control.ts';

export type FaultNoticeKind = 'drop' | 'kill' | 'restart' | 'offline' | 'online';

/** One fault, where it acted. */
export interface FaultNotice {
  /** Numbers notices from 1, in order. */
  readonly id: number;
  /** The `seq` of the last wire entry logged before it (0: none yet): it is drawn after that one. */
  readonly afterSeq: number;
  readonly at: number;
  readonly kind: FaultNoticeKind;
  /** One line a person can read, e.g. `server worker #1 killed: its memory is gone`. */
  readonly text: string;
  /** The followed tasks still running when it happened: the cards it touched. */
  readonly taskIds: readonly string[];
}

/** A client closing its own link is no fault; its reason says so. */
const ORDINARY_CLOSE = new Set(['client closed', 'closed', 'page closed']);

/**
 * What a fault event says as a notice, or undefined for events that are
 * no break in the link (a link opening, a packet fault, which the message's
 * own row marks, a rule, new conditions, a refused reconnect attempt). The
 * first server's start is no restart either.
 */
export function noticeOf(
  event: FaultEvent,
  store: TaskStoreKind | undefined,
): { kind: FaultNoticeKind; text: string } | undefined {
  switch (event.kind) {
    case 'link.dropped':
      if (ORDINARY_CLOSE.has(event.reason)) return undefined;
      return {
        kind: 'drop',
        text: `link #${event.link} broken (${event.reason})${
          event.inFlight > 0
            ? `: ${event.inFlight} message${event.inFlight === 1 ? '' : 's'} in flight lost; requests are re-issued under new ids (C8)`
            : ''
        }`,
      };
    case 'server.killed':
      return {
        kind: 'kill',
        text: `server worker #${event.generation} killed: no answers until a server runs again`,
      };
    case 'server.started':
      if (event.generation <= 1) return undefined;
      return {
        kind: 'restart',
        text: `server worker #${event.generation} started${
          store === 'memory'
            ? ': it keeps tasks in its own memory, so it knows no earlier task'
            : store === 'indexeddb'
              ? ': it reads the tasks kept in IndexedDB'
              : ''
        }`,
      };
    case 'network.offline':
      return {
        kind: 'offline',
        text: `network offline for ${Math.round((event.untilAt - event.at) / 1000)} s`,
      };
    case 'network.online':
      return { kind: 'online', text: 'network back online' };
    default:
      return undefined;
  }
}

/** Short words for a notice's kind, as a card or a row labels it. */
export const FAULT_WORDS: Record<FaultNoticeKind, string> = {
  drop: 'link dropped',
  kill: 'server killed',
  restart: 'server restarted',
  offline: 'network offline',
  online: 'network back',
};
