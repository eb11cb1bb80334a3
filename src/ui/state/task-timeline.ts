/**
 * What a task's timeline draws and counts, in plain TypeScript (the
 * component only lays it out): the faults it marks (each a triangle, near
 * ones merged into one mark whose tooltip names them all), the messages it
 * marks lost, and which `tasks/get` are this client's polls. A `tasks/get`
 * sent over a side connection (the x-ray's look at an orphan, another
 * identity) is no poll of this client's: an orphan's timeline, a task only
 * the x-ray ever asked about, shows no polls.
 *
 * Tested in Node (`tests/unit/ui/task-timeline.test.ts`).
 */
import type { FaultEvent } from '../../net/fault-log.ts';
import { describeFault, faultsForTask } from '../../net/fault-log.ts';
import { noticeOf } from '../../session/fault-notices.ts';
import { clockTime, counted } from '../format.ts';
import type { SequenceMessage } from '../sequence/sequence-model.ts';

/**
 * Whether the timeline marks `event` as a fault. A lost message is marked
 * on the message itself (✕), not again as a fault; a link opening, a
 * refused reconnect attempt, the network or a node coming back, new link
 * conditions and the first server's start are no faults. A client closing
 * its own link is none either (the wire log's fault rows skip the same).
 */
export function marksAsFault(event: FaultEvent): boolean {
  switch (event.kind) {
    case 'packet.lost':
    case 'link.opened':
    case 'connect.refused':
    case 'network.online':
    case 'node.rejoined':
    case 'conditions.changed':
      return false;
    case 'link.dropped':
    case 'server.started':
      return noticeOf(event, undefined) !== undefined;
    default:
      return true;
  }
}

/** The faults `taskId`'s timeline marks: those about it or about every task, from its creation on. */
export function timelineFaults(
  events: readonly FaultEvent[],
  taskId: string,
  since: number,
): FaultEvent[] {
  return faultsForTask(events, taskId).filter((event) => event.at >= since && marksAsFault(event));
}

/** One fault triangle: the faults drawn there, at the first one's time. */
export interface FaultMark {
  readonly at: number;
  readonly faults: readonly FaultEvent[];
  /** Its tooltip and accessible name: every fault at the mark, each with its time. */
  readonly label: string;
}

/** Marks closer than this (px) would overlap: the triangle is 8 px wide. */
export const FAULT_MARK_GAP_PX = 12;

/**
 * The fault triangles, oldest first: faults whose marks would fall within
 * `gapPx` of a mark's first fault (at the plot's scale `x`) join that
 * mark, so no triangle hides another and each stays reachable by pointer
 * and keyboard. A kill and a restart a moment apart become one mark
 * saying both.
 */
export function faultMarks(
  faults: readonly FaultEvent[],
  x: (at: number) => number,
  gapPx = FAULT_MARK_GAP_PX,
): FaultMark[] {
  const sorted = [...faults].sort((a, b) => a.at - b.at || a.seq - b.seq);
  const groups: FaultEvent[][] = [];
  for (const fault of sorted) {
    const group = groups.at(-1);
    if (group && x(fault.at) - x(group[0]!.at) < gapPx) group.push(fault);
    else groups.push([fault]);
  }
  return groups.map((group) => ({
    at: group[0]!.at,
    faults: group,
    label: faultMarkLabel(group),
  }));
}

/** The key a mark is drawn under (and focused by): its first fault's `seq`. */
export const markKey = (mark: FaultMark): number => mark.faults[0]!.seq;

/**
 * The mark that holds the fault `seq` now. While a task runs its timeline
 * rescales, so a mark can merge with a neighbour (or split) and be drawn
 * under another key: the focus and the tooltip follow the fault, to the mark
 * that holds it, instead of being lost with the element that had them.
 */
export function markHolding(marks: readonly FaultMark[], seq: number): FaultMark | undefined {
  return marks.find((mark) => mark.faults.some((fault) => fault.seq === seq));
}

/** "fault at 12:00:01.200: server worker #1 killed", or "3 faults: …; …; …" for a merged mark. */
export function faultMarkLabel(faults: readonly FaultEvent[]): string {
  const lines = faults.map((f) => `${clockTime(f.at)} ${describeFault(f)}`);
  return faults.length === 1
    ? `fault at ${lines[0]!}`
    : `${counted(faults.length, 'fault')}: ${lines.join('; ')}`;
}

/** A message the timeline marks lost (✕): it never arrived. A request only left unanswered by a broken link is drawn as sent. */
export const isDrawnLost = (m: SequenceMessage): boolean =>
  m.lost !== undefined && m.lost !== 'unanswered';

/** One of this client's polls: a `tasks/get` the page's own client sent (not a side connection's). */
export const isOwnPoll = (m: SequenceMessage): boolean =>
  m.direction === 'out' && m.method === 'tasks/get' && m.connection === undefined;

/** What the timeline's facts line counts: each the number of marks of that kind it draws. */
export interface TimelineCounts {
  /** `tasks/get` this client sent (re-issues and lost ones included), never a side connection's. */
  readonly polls: number;
  /** Faults marked (a merged triangle counts each fault it names). */
  readonly faults: number;
  /** Messages marked lost (✕). */
  readonly lost: number;
  /** Requests about the task sent over side connections (the x-ray…), drawn apart, by connection name. */
  readonly sides: ReadonlyMap<string, number>;
  readonly reissued: number;
}

export function timelineCounts(
  messages: readonly SequenceMessage[],
  faults: readonly FaultEvent[],
): TimelineCounts {
  const sides = new Map<string, number>();
  let polls = 0;
  let lost = 0;
  let reissued = 0;
  for (const m of messages) {
    if (m.reissueOf !== undefined) reissued++;
    if (isDrawnLost(m)) lost++;
    if (isOwnPoll(m)) polls++;
    else if (m.connection !== undefined && m.direction === 'out')
      sides.set(m.connection, (sides.get(m.connection) ?? 0) + 1);
  }
  return { polls, faults: faults.length, lost, sides, reissued };
}

/** "2 requests over x-ray" for each side connection the task was asked about over. */
export function sideWords(sides: ReadonlyMap<string, number>): string[] {
  return [...sides].map(([name, n]) => `${counted(n, 'request')} over ${name}`);
}
