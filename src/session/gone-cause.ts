/**
 * Why a followed task answered `-32602` (T13), when the page can tell. The
 * protocol gives one answer for every such case on purpose (an unknown id,
 * an expired and purged task, another caller's task all look alike, T20),
 * but the page saw more than the wire: which server worker answered, where
 * that server kept its tasks, the task's TTL, and which connection created
 * it. A cause is named only when those facts point to it.
 */
import type { TaskStoreKind } from '../protocol/worker-control.ts';

export type GoneCause =
  /** The task was heard from an earlier server worker that kept it in memory. */
  | { kind: 'restarted'; heardFrom: number; answeredBy: number }
  /** Behind the page's balancer with per-node memory: one node holds it, another answered (T19). */
  | { kind: 'other-node'; heardFrom: number; answeredBy: number }
  /** This page never heard of it from its own server: it was resumed from a page before (a reload, or another tab). */
  | { kind: 'earlier-page'; answeredBy: number }
  /** Followed by id alone, never heard of by this page's in-memory server: another tab's worker holds it, or the id is wrong. */
  | { kind: 'other-tab'; answeredBy: number }
  /** Its TTL had passed: the server may fail it, then purge it (T13). */
  | { kind: 'ttl'; expiredAt: number; goneAt: number }
  /** It was created over another connection, as another identity (T20). */
  | { kind: 'identity'; createdBy: string; createdAs: string; askedAs: string }
  | { kind: 'unknown' };

/** What the page knew when `-32602` came. */
export interface GoneFacts {
  /** The worker that answered `-32602` (1 for the first, +1 per restart). */
  answeredBy: number;
  /** The worker that last reported the task to this page, if any did. */
  heardFrom: number | undefined;
  /** Behind the page's balancer: the node that last reported the task, and the node that answered `-32602`. */
  nodes?: { heardFrom: number | undefined; answeredBy: number | undefined } | undefined;
  /** Where the server that last reported it (or, never heard, the one that answered) kept its tasks. */
  store: TaskStoreKind | undefined;
  /** When the answer came, and when the task's TTL ran out (undefined: no TTL known). */
  goneAt: number;
  expiresAt: number | undefined;
  /** How the page came to follow it: a handle it got, resumed from storage on load, or an id pasted in. */
  origin: 'handle' | 'resumed' | 'by-id';
  /** Who asked, and the connection and identity the task was created over, when the page saw it created. */
  askedAs: string;
  createdOver: { connection: string; identity: string } | undefined;
}

/** The likeliest cause the facts prove, most certain first. */
export function goneCause(facts: GoneFacts): GoneCause {
  const creator = facts.createdOver;
  if (creator && creator.identity !== facts.askedAs)
    return {
      kind: 'identity',
      createdBy: creator.connection,
      createdAs: creator.identity,
      askedAs: facts.askedAs,
    };
  if (facts.store === 'memory') {
    const nodes = facts.nodes;
    if (
      nodes?.heardFrom !== undefined &&
      nodes.answeredBy !== undefined &&
      nodes.heardFrom !== nodes.answeredBy
    )
      return { kind: 'other-node', heardFrom: nodes.heardFrom, answeredBy: nodes.answeredBy };
    if (facts.heardFrom !== undefined && facts.heardFrom < facts.answeredBy)
      return { kind: 'restarted', heardFrom: facts.heardFrom, answeredBy: facts.answeredBy };
    if (facts.heardFrom === undefined && facts.origin === 'resumed')
      return { kind: 'earlier-page', answeredBy: facts.answeredBy };
    if (facts.heardFrom === undefined && facts.origin === 'by-id')
      return { kind: 'other-tab', answeredBy: facts.answeredBy };
  }
  if (facts.expiresAt !== undefined && facts.goneAt >= facts.expiresAt)
    return { kind: 'ttl', expiredAt: facts.expiresAt, goneAt: facts.goneAt };
  return { kind: 'unknown' };
}

const seconds = (ms: number): string => `${Math.max(0, Math.round(ms / 1000))} s`;

/** What a card says first about a `gone` task, whatever the cause. */
export const GONE_LEAD = 'The server answered -32602: it no longer knows this task (T13).';

/** What a failed follow by id says first: the server may never have known the id. */
export const UNKNOWN_LEAD = 'The server answered -32602: it does not know this taskId (T13).';

/** The cause in one or two sentences, naming it when it is known. */
export function goneCauseText(cause: GoneCause): string {
  switch (cause.kind) {
    case 'restarted':
      return `Cause: the server restarted. Worker #${cause.heardFrom} reported it and kept it in its own memory; worker #${cause.answeredBy}, started fresh, never had it. A task lives only as long as the store that holds it (C1).`;
    case 'other-node':
      return `Cause: another node answered. Node ${cause.heardFrom} reported it and keeps it in its own memory; the balancer sent this tasks/get to node ${cause.answeredBy}, which never had it. Per-node memory behind a balancer that does not route by Mcp-Name is the broken deployment: share one store, or route by Mcp-Name (T19, C1).`;
    case 'earlier-page':
      return `Cause: the task was followed from an earlier page (a reload, or another tab), whose server worker kept it in memory; this page's worker #${cause.answeredBy} never had it (M5, C1).`;
    case 'other-tab':
      return `Likely cause: another tab's server worker holds it. With Worker memory each tab's server keeps its own tasks, and this tab's worker #${cause.answeredBy} never had this one (or the id is mistyped) (M5).`;
    case 'ttl':
      return `Cause: its TTL had run out ${seconds(cause.goneAt - cause.expiredAt)} before this answer: a server may fail a task once its TTL passes, and delete it later (T13).`;
    case 'identity':
      return `Cause: it was created over "${cause.createdBy}" as ${cause.createdAs}, and asked about as ${cause.askedAs}. The spec requires an authorization check on every task request; answering another identity's task like a missing one is this server's policy (T20).`;
    case 'unknown':
      return `The page cannot tell why: the id may never have existed, or the task expired and was purged, or the server that held it is gone (T13).`;
  }
}
