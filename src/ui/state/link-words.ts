/**
 * What the header says about the page's link, from the client's state and
 * the server's as they are now. The reason a reconnect attempt failed is
 * kept by the client until its next attempt (its backoff may be seconds
 * away); once the page's own server runs again, that reason ("the server
 * is not running") is history, so the words say the server is up and the
 * client is waiting out its backoff, not what was true at the last attempt.
 *
 * Tested in Node (`tests/unit/ui/link-words.test.ts`).
 */
import type { ConnectionInfo, ConnectionState } from '../../client/rpc-client.ts';

/** What the words are derived from, all read at the same moment. */
export interface LinkFacts {
  readonly state: ConnectionState;
  readonly info: ConnectionInfo;
  /** The learner's own server's address, when the page talks to one (nothing tells it whether that one runs). */
  readonly remote: string | undefined;
  readonly identity: string;
  /** The page's own server (its worker) runs now, and its number. */
  readonly serverRunning: boolean;
  readonly serverGeneration: number;
  /** The simulated network is offline (the header says so apart). */
  readonly offline: boolean;
}

export interface LinkWords {
  /** "Connected as learner", "Reconnecting…". */
  readonly label: string;
  /** Beside it while reconnecting: why, short; absent when there is nothing to add. */
  readonly detail: string | undefined;
  /** The same at length, for the tooltip. */
  readonly detailTitle: string | undefined;
}

export function linkWords(facts: LinkFacts): LinkWords {
  const label =
    facts.state === 'open'
      ? facts.remote
        ? `Connected to ${new URL(facts.remote).host}`
        : `Connected as ${facts.identity}`
      : facts.state === 'connecting'
        ? 'Connecting…'
        : facts.state === 'reconnecting'
          ? 'Reconnecting…'
          : 'Closed';
  const reason = facts.info.reason;
  if (facts.state !== 'reconnecting' || facts.offline || reason === undefined)
    return { label, detail: undefined, detailTitle: undefined };
  const waiting = facts.info.retryAt !== undefined;
  if (facts.remote === undefined && facts.serverRunning && waiting)
    return {
      label,
      detail: 'server up; retry after backoff',
      detailTitle: `The server runs (worker #${facts.serverGeneration}). The client's last attempt failed (${reason}); it tries again when its backoff ends, and cannot know before then that the server is up.`,
    };
  return { label, detail: reason, detailTitle: reason };
}
