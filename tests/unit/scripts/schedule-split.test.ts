/**
 * The schedule floor's figures (`scripts/bench/schedule-split.ts`) on
 * hand-made records: windows merge by adding their time and polls, the
 * achieved rate is polls over time, and a cycle's parts (the interval T12
 * paces sends by, or a longer round trip, + lateness) add up to the cycle
 * the rate implies when every task polled steadily.
 */
import { describe, expect, it } from 'vitest';
import type { FollowerRecord } from '../../../bench/floor-follower.ts';
import {
  achievedRate,
  cycleSplit,
  mergeRecords,
  rankByRate,
  scheduleFigures,
} from '../../../scripts/bench/schedule-split.ts';

/** 10 tasks polled for 2 s, cycles of 250 ms (short round trips) or 535 ms (a 310 ms one, + 225) + 6 ms late: 351 ms on average. */
const steady: FollowerRecord = {
  ms: 2000,
  sent: (10 * 2000) / 351,
  roundTrips: [2, 6, 310],
  late: [6, 6, 6],
  timerLate: [1, 3],
  pollsPerPost: [1, 3],
  answersPerPost: [2, 2],
  errors: [],
};

describe('schedule floor figures', () => {
  it('merges windows: time and polls add, samples concatenate', () => {
    const other: FollowerRecord = { ...steady, ms: 1000, sent: 5, roundTrips: [10], errors: ['x'] };
    const merged = mergeRecords([steady, other]);
    expect(merged.ms).toBe(3000);
    expect(merged.sent).toBeCloseTo(steady.sent + 5);
    expect(merged.roundTrips).toEqual([2, 6, 310, 10]);
    expect(merged.errors).toEqual(['x']);
  });

  it('T12: the cycle is the rule due time (nextPollDueAt) + late, as the achieved rate implies', () => {
    expect(achievedRate(steady)).toBeCloseTo((10 * 1000) / 351);
    const split = cycleSplit(steady, 10, 250);
    expect(split.roundTrip).toBe(106);
    expect(split.due).toBe(345);
    expect(split.late).toBe(6);
    // Paced from the answer alone it would be 106 + 250 + 6 = 362 ms; from the send alone, 276.
    expect(split.sum).toBe(351);
    expect(split.implied).toBeCloseTo(351);
  });

  it('reads the rate against the asked rate, and the CPU per poll when given', () => {
    const figures = scheduleFigures('schedule-floor', 'ten', steady, 10, 250, 0.5);
    const byName = (name: string) => figures.find((f) => f.name === `${name}, ten`);
    const achieved = byName('tasks/get achieved')!;
    expect(achieved.reference).toEqual({ name: 'asked', value: 40 });
    expect(achieved.ratio).toBeCloseTo(250 / 351);
    expect(byName('cycle: round trip p50')!.value).toBe(6);
    expect(byName('cycle: due after + late (means)')!.ratio).toBeCloseTo(1);
    expect(byName('polls per postMessage (mean)')!.value).toBe(2);
    expect(byName('tasks/get per CPU second of the main thread')!.value).toBeCloseTo(
      steady.sent / 0.5,
    );
    expect(scheduleFigures('schedule-floor', 'ten', steady, 10, 250).length).toBe(
      figures.length - 1,
    );
  });

  it('ranks variants by achieved rate, best first, leaving out a window with no time', () => {
    const ranked = rankByRate([
      ['slow', { ...steady, sent: 10 }],
      ['empty', { ...steady, ms: 0, sent: 0 }],
      ['fast', { ...steady, sent: 70 }],
    ]);
    expect(ranked.map((r) => r.key)).toEqual(['fast', 'slow']);
    expect(ranked[0]!.rate).toBeCloseTo(35);
  });

  it('gives no rate for an empty window rather than a division by zero', () => {
    expect(achievedRate({ ...steady, ms: 0, sent: 0 })).toBeNaN();
  });
});
