/**
 * Where a task's timeline puts a moment: the span from the task's creation
 * to now (or to its last message once done), at least five seconds, mapped
 * onto the plot's width inside its padding, and axis labels on a round step
 * that never crowd the width.
 */
import { describe, expect, it } from 'vitest';
import {
  AFTER_NOW_MS,
  MIN_SPAN_MS,
  TIMELINE_PAD_PX,
  axisTicks,
  timelineScale,
} from '../../../src/ui/state/timeline-scale.ts';

describe('timelineScale', () => {
  it('T12: a running task spans from its creation to just after now, its polls placed by their time inside the padding', () => {
    const scale = timelineScale({
      createdAt: 10_000,
      messageTimes: [10_000, 12_000, 14_000],
      done: false,
      present: 19_750,
      width: 828,
    });
    expect(scale.start).toBe(10_000);
    expect(scale.now).toBe(19_750);
    expect(scale.end).toBe(19_750 + AFTER_NOW_MS);
    expect(scale.x(10_000)).toBe(TIMELINE_PAD_PX);
    expect(scale.x(scale.end)).toBe(828 - TIMELINE_PAD_PX);
    // 800 px inner width over 10 s: 80 px a second.
    expect(scale.x(12_000)).toBe(TIMELINE_PAD_PX + 160);
    expect(scale.x(14_000) - scale.x(12_000)).toBe(160);
  });

  it('T12: a finished task stops at its last message, not at the page clock running on', () => {
    const scale = timelineScale({
      createdAt: 0,
      messageTimes: [0, 3_000, 9_000],
      done: true,
      present: 60_000,
      width: 400,
    });
    expect(scale.now).toBe(9_000);
    expect(scale.end).toBe(9_000 + AFTER_NOW_MS);
  });

  it('T12: a fresh task covers five seconds at least, so its first poll is not spread over the width', () => {
    const scale = timelineScale({
      createdAt: 1_000,
      messageTimes: [1_000],
      done: false,
      present: 1_200,
      width: 600,
    });
    expect(scale.end - scale.start).toBe(MIN_SPAN_MS);
    expect(scale.x(1_000 + MIN_SPAN_MS / 2)).toBe(300);
  });

  it('T7: the tools/call sent before the task existed widens the span to its left, so its mark stays on the plot', () => {
    const scale = timelineScale({
      createdAt: 5_000,
      messageTimes: [4_200, 5_100, 6_000],
      done: true,
      present: 30_000,
      width: 500,
    });
    expect(scale.start).toBe(4_200);
    expect(scale.x(4_200)).toBe(TIMELINE_PAD_PX);
  });

  it('T12: a plot narrower than its padding still maps time forward (no division by zero, no reversal)', () => {
    const scale = timelineScale({
      createdAt: 0,
      messageTimes: [],
      done: false,
      present: 0,
      width: 10,
    });
    expect(scale.x(MIN_SPAN_MS)).toBeGreaterThan(scale.x(0));
    expect(Number.isFinite(scale.x(1_000))).toBe(true);
  });
});

describe('axisTicks', () => {
  it('T12: labels every second on a short span that has room for them', () => {
    expect(axisTicks(0, 5_000, 800)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('T12: picks the smallest round step that keeps about one label per 90 px', () => {
    // 60 s over 360 px: 4 labels wanted, so 15 s steps (not 10 s: 7 labels).
    expect(axisTicks(0, 60_000, 360)).toEqual([0, 15, 30, 45, 60]);
  });

  it('T13: a span of hours (a long TTL, a far-apart run file) labels whole twenty minutes, never more labels than fit', () => {
    const ticks = axisTicks(0, 10 * 3_600_000, 450);
    expect(ticks.length).toBeLessThanOrEqual(Math.floor(450 / 90) + 1);
    for (const s of ticks) expect(s % 1200).toBe(0);
    expect(ticks[0]).toBe(0);
  });
});
