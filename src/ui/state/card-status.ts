/**
 * What a task card's status badge says. While the client follows a task,
 * or once it saw a final status, that is the status it last heard. When it
 * stopped without one (the TTL passed, the server answered `-32602`, the
 * user stopped following), the last status heard is old news: the badge
 * says so ("last heard: working") and never looks like a fresh `working`;
 * the client's conclusion is said beside it.
 *
 * Plain TypeScript, tested in Node (`tests/unit/ui/card-status.test.ts`).
 */
import type { TaskOutcome } from '../../machines/task-machine.ts';
import { isTerminal, type TaskStatus } from '../../protocol/task.ts';

export type CardStatus =
  /** The status as the client heard it, still current for it (followed, or final). */
  | { kind: 'heard'; status: TaskStatus }
  /** The client stopped following without a final status: what it last heard, and why it stopped. */
  | { kind: 'stale'; status: TaskStatus; why: 'ttl' | 'gone' | 'forgotten' };

/** The card's badge for a task whose client last heard `status` and is `done` with `outcome`. */
export function cardStatus(
  status: TaskStatus,
  done: boolean,
  outcome: TaskOutcome | undefined,
): CardStatus {
  if (!done || isTerminal(status)) return { kind: 'heard', status };
  const why = outcome === 'expired' ? 'ttl' : outcome === 'gone' ? 'gone' : 'forgotten';
  return { kind: 'stale', status, why };
}

/** Why the client stopped following, in a sentence, for a stale badge (T13 for both ends a server causes). */
export const STOPPED_BECAUSE: Readonly<Record<'ttl' | 'gone' | 'forgotten', string>> = {
  ttl: 'The client stopped following because the TTL passed (T13): the status above is what it last heard, not what the task is now.',
  gone: 'The client stopped following because the server answered -32602: it no longer knows the task (T13). The status above is what the client last heard.',
  forgotten:
    'You stopped following this task: the status above is what the client last heard; the server may still be running it.',
};
