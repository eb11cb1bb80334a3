/**
 * The state at a moment, rebuilt from the recording alone: the wire rows as
 * they were then (a sent message's later fate not yet known), the fault
 * notices, each task's last seen status, x-ray and machine step; and a
 * seek over 100,000 events that touches only what the moment shows.
 */
import { describe, expect, it } from 'vitest';
import type { ReplayEvent } from '../../../src/replay/replay-events.ts';
import { RunIndex, WIRE_ROWS_SHOWN } from '../../../src/replay/run-index.ts';
import { answered, cancelRace, resetSeq, sent } from './replay-fixtures.ts';

describe('RunIndex', () => {
  it('a sent message shows in flight before its packet update, and lost after it', () => {
    const index = RunIndex.of(cancelRace());
    const poll = (t: number) =>
      index
        .wireAt(index.momentAt(t))
        .find((r) => r.method === 'tasks/get' && r.direction === 'out');
    expect(poll(1000)?.net?.lost).toBeUndefined();
    expect(poll(1001)?.net?.lost).toBe('link-dropped');
    // The same row object at two moments after its last update: views cache by row.
    expect(poll(1500)).toBe(poll(2500));
  });

  it('the task as the client saw it, and the x-ray, at each moment', () => {
    const index = RunIndex.of(cancelRace());
    expect(index.tasksAt(index.momentAt(5))).toEqual([]);
    const working = index.tasksAt(index.momentAt(1500))[0];
    expect(working).toMatchObject({
      taskId: 't1',
      toolName: 'slow_compute',
      clientSaw: 'working',
      stored: { kind: 'stored', status: 'working' },
      stepCount: 1,
    });
    // The store completed before the client heard of it: the x-ray is ahead of the client (T12).
    const ahead = index.tasksAt(index.momentAt(1650))[0];
    expect(ahead?.clientSaw).toBe('working');
    expect(ahead?.stored).toMatchObject({ status: 'completed' });
    const done = index.tasksAt(index.momentAt(3000))[0];
    expect(done?.clientSaw).toBe('completed');
    expect(done?.step?.value).toBe('completed');
    expect(index.stepsOf('t1', index.momentAt(3000)).map((s) => s.event)).toEqual([
      'task.created',
      'poll.answered',
    ]);
  });

  it('a cleared wire log starts over, its notices too', () => {
    const events: ReplayEvent[] = [
      ...cancelRace().slice(0, 8),
      { at: 1200, kind: 'wire-cleared' },
      ...cancelRace().slice(8),
    ];
    const index = RunIndex.of(events);
    expect(index.wireAt(index.momentAt(1100))).toHaveLength(3);
    expect(index.faultsAt(index.momentAt(1100))).toHaveLength(1);
    expect(index.wireAt(index.momentAt(1200))).toHaveLength(0);
    expect(index.faultsAt(index.momentAt(1200))).toHaveLength(0);
    expect(index.wireAt(index.momentAt(3000)).map((r) => r.method)).toEqual([
      'tasks/cancel',
      'tasks/cancel',
    ]);
  });

  it(`seeks over 100,000 events touching at most ${WIRE_ROWS_SHOWN} rows each time`, () => {
    resetSeq();
    const events: ReplayEvent[] = [];
    for (let i = 0; i < 50_000; i++) {
      events.push(sent(i * 10, 'tasks/get', { taskId: 't1' }));
      events.push(answered(i * 10 + 5, 2 * i + 1, 't1', 'working'));
    }
    const index = RunIndex.of(events);
    for (let step = 0; step < 200; step++) {
      const rows = index.wireAt(index.momentAt((step * 2_500) % index.duration));
      expect(rows.length).toBeLessThanOrEqual(WIRE_ROWS_SHOWN);
    }
    const end = index.wireAt(index.momentAt(index.duration));
    expect(end).toHaveLength(WIRE_ROWS_SHOWN);
    expect(end[end.length - 1]?.seq).toBe(100_000);
  });
});

describe('RunIndex.build', () => {
  it('built in chunks (the page yields between them), it answers as one built at once', async () => {
    const events = cancelRace();
    const progress: number[] = [];
    const chunked = await RunIndex.build(events, {
      chunk: 3,
      pause: () => Promise.resolve(),
      onProgress: (done) => progress.push(done),
    });
    const whole = RunIndex.of(events);
    for (const t of [0, 10, 1001, 1650, 3000]) {
      expect(chunked.wireAt(chunked.momentAt(t))).toEqual(whole.wireAt(whole.momentAt(t)));
      expect(chunked.tasksAt(chunked.momentAt(t))).toEqual(whole.tasksAt(whole.momentAt(t)));
    }
    expect(progress).toHaveLength(Math.ceil(events.length / 3));
    expect(progress[progress.length - 1]).toBe(1);
  });

  it('with a time budget, pauses only once that long has been worked, and answers the same', async () => {
    const events = cancelRace();
    // A clock that moves 1 ms each time it is read: after each chunk of 1 event.
    let clock = 0;
    const now = () => clock++;
    let pauses = 0;
    const progress: number[] = [];
    const budgeted = await RunIndex.build(events, {
      chunk: 1,
      budget: { ms: 3, now },
      pause: () => {
        pauses++;
        return Promise.resolve();
      },
      onProgress: (done) => progress.push(done),
    });
    // Read at the start and after every chunk; a pause every third read (3 ms), and at the end.
    expect(pauses).toBe(Math.ceil(events.length / 3));
    expect(progress).toHaveLength(pauses);
    expect(progress.at(-1)).toBe(1);
    const whole = RunIndex.of(events);
    for (const t of [0, 10, 1001, 1650, 3000])
      expect(budgeted.tasksAt(budgeted.momentAt(t))).toEqual(whole.tasksAt(whole.momentAt(t)));
  });
});
