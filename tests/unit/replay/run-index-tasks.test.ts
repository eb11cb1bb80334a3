/**
 * A task at a moment from its own track, not from the whole run: the rows
 * a card's timeline draws are the wire log's rows at that moment that name
 * the task (the same row objects, found by binary search in the task's own
 * rows), and one task read alone is what the whole list says of it. Over
 * random runs of many tasks with packet updates and clears of the log.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReplayEvent } from '../../../src/replay/replay-events.ts';
import { RunIndex, WIRE_ROWS_SHOWN } from '../../../src/replay/run-index.ts';
import type { TaskStatus } from '../../../src/protocol/task.ts';
import { answered, cancelRace, resetSeq, sent } from './replay-fixtures.ts';

const STATUSES: readonly TaskStatus[] = ['working', 'input_required', 'completed'];

/** One step of a random run: a poll and its answer about a task, a lost poll, or a cleared log. */
type Move =
  | { kind: 'poll'; task: number; status: number; lost: boolean }
  | { kind: 'clear' }
  | { kind: 'other' };

const move = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('poll' as const),
      task: fc.nat(6),
      status: fc.nat(STATUSES.length - 1),
      lost: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'other' as const }) },
);

function runOf(moves: readonly Move[]): ReplayEvent[] {
  resetSeq();
  const events: ReplayEvent[] = [];
  let packet = 0;
  moves.forEach((m, i) => {
    const at = i * 10;
    if (m.kind === 'clear') events.push({ at, kind: 'wire-cleared' });
    else if (m.kind === 'other') events.push({ at, kind: 'other', label: 'connection opened' });
    else {
      const taskId = `t${m.task}`;
      events.push(sent(at, 'tasks/get', { taskId }, ++packet));
      events.push(
        m.lost
          ? { at: at + 2, kind: 'packet', update: { packet, at: at + 2, lost: 'link-dropped' } }
          : { at: at + 2, kind: 'packet', update: { packet, at: at + 2, deliveredAt: at + 2 } },
      );
      if (!m.lost) events.push(answered(at + 5, 2 * i + 1, taskId, STATUSES[m.status]!));
    }
  });
  return events;
}

describe('RunIndex, one task at a moment', () => {
  it("a task's rows at a moment are the wire log's rows then that name it, the same objects", () => {
    fc.assert(
      fc.property(fc.array(move, { maxLength: 80 }), (moves) => {
        const index = RunIndex.of(runOf(moves));
        for (let n = 0; n <= index.events.length; n++) {
          const shown = index.wireAt(n);
          for (const taskId of index.taskIds) {
            const own = index.taskRowsAt(taskId, n);
            const expected = shown.filter((row) => row.taskId === taskId);
            expect(own).toHaveLength(expected.length);
            own.forEach((row, i) => expect(row).toBe(expected[i]));
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('one task read alone is what the whole list says of it; the list holds those met by then, newest first', () => {
    fc.assert(
      fc.property(fc.array(move, { maxLength: 80 }), (moves) => {
        const index = RunIndex.of(runOf(moves));
        for (let n = 0; n <= index.events.length; n++) {
          const listed = index.tasksAt(n);
          expect(listed).toHaveLength(index.tasksMetBy(n));
          expect(listed.map((task) => task.taskId)).toEqual(
            index.taskIds.slice(0, index.tasksMetBy(n)).reverse(),
          );
          for (const task of listed) expect(index.taskAt(task.taskId, n)).toEqual(task);
          for (const taskId of index.taskIds.slice(index.tasksMetBy(n)))
            expect(index.taskAt(taskId, n)).toBeUndefined();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a task met later starts the list; when the recording met it is said in the task', () => {
    const index = RunIndex.of(cancelRace());
    expect(index.taskIds).toEqual(['t1']);
    expect(index.tasksMetBy(index.momentAt(5))).toBe(0);
    expect(index.tasksMetBy(index.momentAt(10))).toBe(1);
    expect(index.taskAt('t1', index.momentAt(10))?.metAt).toBe(10);
    expect(index.taskAt('t9', index.events.length)).toBeUndefined();
    expect(index.taskRowsAt('t9', index.events.length)).toEqual([]);
  });

  it(`past ${WIRE_ROWS_SHOWN} rows, a task's rows are only those of the newest ${WIRE_ROWS_SHOWN}, as the log shows`, () => {
    resetSeq();
    const events: ReplayEvent[] = [];
    for (let i = 0; i < 6000; i++) {
      const taskId = `t${i % 3}`;
      events.push(sent(i * 10, 'tasks/get', { taskId }));
      events.push(answered(i * 10 + 5, 2 * i + 1, taskId, 'working'));
    }
    const index = RunIndex.of(events);
    const end = index.events.length;
    const shown = index.wireAt(end);
    expect(shown).toHaveLength(WIRE_ROWS_SHOWN);
    const own = index.taskRowsAt('t1', end);
    expect(own.length).toBeLessThan(WIRE_ROWS_SHOWN / 2);
    expect(own).toEqual(shown.filter((row) => row.taskId === 't1'));
    expect(own[0]!.seq).toBeGreaterThanOrEqual(shown[0]!.seq);
  });
});
