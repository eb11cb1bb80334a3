/**
 * The sentences a task card reads from a task's news (`task-news.ts`): what
 * it last heard and how long ago once that may be stale, the faults since,
 * how many `tasks/get` went out, and how a cancelled task that completed
 * anyway got there. Plain functions of the news and the time, so the page
 * and the tests read the same words.
 */
import { isTerminal } from '../protocol/task.ts';
import { FAULT_WORDS } from './fault-notices.ts';
import type { HeardReport, TaskNewsSnapshot } from './task-news.ts';

/** `12 s`, `0.4 s`, `3 min 05 s`: how long ago, for a person. */
export function agoText(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

/** A last report that can no longer be taken as the present, and the faults since it. */
export interface StaleReport {
  readonly heard: HeardReport;
  /** What broke since, in words (`server killed`, `link dropped`), first first. */
  readonly since: readonly string[];
}

/**
 * The last report, once it may be stale: a fault broke the link or the
 * server after it, or the client stopped following before any terminal
 * status. Undefined while the last report is fresh or final.
 */
export function staleReport(news: TaskNewsSnapshot, following: boolean): StaleReport | undefined {
  const heard = news.lastHeard;
  if (!heard || isTerminal(heard.status)) return undefined;
  const since = news.faults.filter((fault) => fault.at >= heard.at && fault.kind !== 'online');
  if (following && since.length === 0) return undefined;
  return { heard, since: [...new Set(since.map((fault) => FAULT_WORDS[fault.kind]))] };
}

/** "last heard: working, 12 s ago; server killed". */
export function lastHeardText(stale: StaleReport, now: number): string {
  const since = stale.since.length > 0 ? `; ${stale.since.join(', ')}` : '';
  return `last heard: ${stale.heard.status}, ${agoText(now - stale.heard.at)} ago${since}`;
}

/** The `tasks/get` this page sent, when they differ from the client's poll rounds (a re-issue counts once, C8). */
export function tasksGetSentText(news: TaskNewsSnapshot, polls: number): string | undefined {
  if (news.tasksGetSent === polls) return undefined;
  const reissued = news.tasksGetReissued > 0 ? `, ${news.tasksGetReissued} re-issued` : '';
  return `${news.tasksGetSent} tasks/get sent${reissued}`;
}

/** Why a task whose cancel was requested ended `completed` (T17): what the page saw, not a guess. */
export function cancelledButCompletedText(news: TaskNewsSnapshot): string {
  if (news.ranOnAfterCancel)
    return 'Cancel was requested and acknowledged, yet the server went on reporting the task running and it ended completed: the job carried on through the cancel. A cancel is only a request; the server decides (T17).';
  if (news.cancelAckedAt === undefined)
    return 'Cancel was requested, yet the task ended completed: the cancel was not acknowledged before the task ended. The server decides (T17).';
  return 'Cancel was requested and acknowledged, and the next report already said completed: the job finished before the cancel reached it, or would not stop. The server decides (T17).';
}
