/**
 * What the header says about the page's link, from the client's state and
 * the server's as they are now. The reason a reconnect attempt failed is
 * kept by the client until its next attempt (its backoff may be seconds
 * away); once the page's own server runs again, that reason ("the server
 * is not running") is history, so the words say the server is up and the
 * client is waiting out its backoff, not what was true at the last attempt.
 * The other way round: a killed server with no request in flight breaks
 * nothing the client can see yet (the page's end of the link, the network's
 * balancer, stays open), so the client still thinks it is connected; the
 * words say the server is stopped and that the client will find out at its
 * next request, not "Connected as learner".
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
  /** "Connected as learner", "Reconnecting…", "Server stopped". */
  readonly label: string;
  /** The state the link's dot shows: the client's, but `closed` once the page's own server is stopped. */
  readonly dot: ConnectionState;
  /** Beside it while reconnecting: why, short; absent when there is nothing to add. */
  readonly detail: string | undefined;
  /** The same at length, for the tooltip. */
  readonly detailTitle: string | undefined;
}

export function linkWords(facts: LinkFacts): LinkWords {
  if (facts.state === 'open' && facts.remote === undefined && !facts.serverRunning)
    return {
      label: 'Server stopped',
      dot: 'closed',
      detail: 'client not told yet',
      detailTitle:
        "The server worker is stopped, but no request was in flight, so nothing the client can see broke: the page's end of the link (the network's balancer) is still open. Its next request fails, and then it reconnects with backoff.",
    };
  const dot = facts.state;
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
    return { label, dot, detail: undefined, detailTitle: undefined };
  const waiting = facts.info.retryAt !== undefined;
  if (facts.remote === undefined && facts.serverRunning && waiting)
    return {
      label,
      dot,
      detail: 'server up; retry after backoff',
      detailTitle: `The server runs (worker #${facts.serverGeneration}). The client's last attempt failed (${reason}); it tries again when its backoff ends, and cannot know before then that the server is up.`,
    };
  return { label, dot, detail: reason, detailTitle: reason };
}
