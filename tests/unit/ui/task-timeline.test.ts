/**
 * What a task's timeline draws and counts: the fault marks (no link
 * openings, refused reconnects or lost messages among them; near ones
 * merged into one mark naming each), the count saying what is drawn, and
 * a side connection's tasks/get (the x-ray's look at an orphan) never
 * counted as this client's polls.
 */
import { describe, expect, it } from 'vitest';
import {
  FaultLog,
  faultsForTask,
  type FaultEvent,
  type FaultEventInit,
} from '../../../src/net/fault-log.ts';
import type { SequenceMessage } from '../../../src/ui/sequence/sequence-model.ts';
import {
  faultMarks,
  markHolding,
  markKey,
  marksAsFault,
  sideWords,
  timelineCounts,
  timelineFaults,
} from '../../../src/ui/state/task-timeline.ts';

/** A kill then a restart of the server a moment apart, as the network logs them, with the reconnects between. */
function killAndRestart(): FaultEvent[] {
  const log = new FaultLog();
  const at = (t: number, init: FaultEventInit) => log.add(t, init);
  at(1000, { kind: 'link.opened', link: 1 });
  at(2000, {
    kind: 'packet.lost',
    reason: 'link-dropped',
    direction: 'out',
    packet: 7,
    link: 1,
    method: 'tasks/get',
    taskId: 't1',
  });
  at(2000, { kind: 'link.dropped', link: 1, reason: 'server worker killed', inFlight: 1 });
  at(2000, { kind: 'server.killed', generation: 1 });
  at(2300, { kind: 'connect.refused', reason: 'server worker is not running' });
  at(2800, { kind: 'connect.refused', reason: 'server worker is not running' });
  at(6000, { kind: 'server.started', generation: 2 });
  at(6250, { kind: 'link.opened', link: 2 });
  at(6500, { kind: 'link.dropped', link: 2, reason: 'client closed', inFlight: 0 });
  at(6600, {
    kind: 'packet.duplicated',
    direction: 'in',
    packet: 9,
    link: 2,
    method: 'tasks/get',
    taskId: 'other',
  });
  return [...log.events];
}

const message = (
  seq: number,
  direction: 'in' | 'out',
  extra: Partial<SequenceMessage> = {},
): SequenceMessage => ({
  seq,
  at: seq * 100,
  direction,
  kind: direction === 'out' ? 'request' : 'result',
  method: 'tasks/get',
  id: seq,
  taskId: 't1',
  gist: '',
  status: undefined,
  resultType: undefined,
  node: undefined,
  connection: undefined,
  message: {},
  ...extra,
});

describe('fault marks', () => {
  it('C8: a kill and a restart mark the link drop, the kill and the restart, not the reconnects, openings or the lost message', () => {
    const faults = timelineFaults(killAndRestart(), 't1', 0);
    expect(faults.map((f) => f.kind)).toEqual(['link.dropped', 'server.killed', 'server.started']);
    // The first server's start and a client's own close are no faults either.
    expect(marksAsFault({ seq: 1, at: 0, kind: 'server.started', generation: 1 })).toBe(false);
    // Faults before the task was created are not its own.
    expect(timelineFaults(killAndRestart(), 't1', 3000).map((f) => f.kind)).toEqual([
      'server.started',
    ]);
  });

  it('C8: faults whose triangles would overlap share one mark, whose name lists every one of them', () => {
    const faults = timelineFaults(killAndRestart(), 't1', 0);
    // 10 s across 1000 px: 2000 and 6000 ms are far apart, the drop and the kill at one moment.
    const marks = faultMarks(faults, (t) => t / 10);
    expect(marks.map((m) => m.faults.length)).toEqual([2, 1]);
    expect(marks[0]!.label).toMatch(
      /^2 faults: \S+ link #1 dropped: server worker killed \(1 in flight lost\); \S+ server worker #1 killed$/,
    );
    expect(marks[1]!.label).toMatch(/^fault at \S+ server worker #2 started$/);
    // Squeezed into 10 px, the restart is 4 px from the kill: one mark for all three.
    const squeezed = faultMarks(faults, (t) => t / 1000);
    expect(squeezed).toHaveLength(1);
    expect(squeezed[0]!.label).toMatch(/^3 faults: .*killed; .*#2 started$/);
    // Every fault is in exactly one mark: the count says what the marks show.
    for (const scale of [1, 10, 100, 1000])
      expect(faultMarks(faults, (t) => t / scale).flatMap((m) => m.faults)).toEqual(faults);
  });
});

describe('a focused fault mark while the timeline rescales', () => {
  it('C8: when its mark merges with a neighbour, the fault is found in the merged mark (focus and tooltip go there)', () => {
    const faults = timelineFaults(killAndRestart(), 't1', 0);
    const wide = faultMarks(faults, (t) => t / 10);
    const restart = wide[1]!; // The restart's own mark, focused by the reader.
    expect(restart.faults).toHaveLength(1);
    // The task ran on: the same 10 s now take 10 px, and the restart's mark joins the kill's.
    const squeezed = faultMarks(faults, (t) => t / 1000);
    expect(squeezed.map(markKey)).not.toContain(markKey(restart));
    const holder = markHolding(squeezed, markKey(restart));
    expect(holder).toBe(squeezed[0]);
    expect(markKey(holder!)).toBe(markKey(wide[0]!));
    // Split again (wider), each fault's own mark holds it once more.
    expect(markHolding(wide, markKey(restart))).toBe(restart);
    expect(markHolding(squeezed, -1)).toBeUndefined();
  });
});

describe('what the timeline counts', () => {
  it('C8: counts the faults marked and the messages drawn lost apart, not every fault-log event', () => {
    const all = killAndRestart();
    const faults = timelineFaults(all, 't1', 0);
    const messages = [
      message(1, 'out'),
      message(2, 'in', { status: 'working' }),
      message(3, 'out', { lost: 'link-dropped' }),
      message(4, 'out', { reissueOf: 3 }),
      message(5, 'in', { status: 'completed' }),
    ];
    const counts = timelineCounts(messages, faults);
    // The fault log holds nine events about the task: the old count said "9 faults".
    expect(faultsForTask(all, 't1')).toHaveLength(9);
    expect(counts).toMatchObject({ polls: 3, faults: 3, lost: 1, reissued: 1 });
    expect(counts.sides.size).toBe(0);
  });

  it("M7: an orphan seen only over the x-ray connection has no polls: its tasks/get are the x-ray's", () => {
    const orphan = [
      message(1, 'out', { connection: 'x-ray' }),
      message(2, 'in', { connection: 'x-ray', status: 'working' }),
      message(3, 'out', { connection: 'x-ray' }),
      message(4, 'in', { connection: 'x-ray', status: 'completed' }),
    ];
    const counts = timelineCounts(orphan, []);
    expect(counts.polls).toBe(0);
    expect([...counts.sides]).toEqual([['x-ray', 2]]);
    expect(sideWords(counts.sides)).toEqual(['2 requests over x-ray']);
    // A followed task also looked at over the x-ray: only the page's own tasks/get are polls.
    expect(timelineCounts([message(5, 'out'), ...orphan], []).polls).toBe(1);
  });
});
