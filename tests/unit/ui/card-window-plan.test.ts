import { describe, expect, it } from 'vitest';
import {
  guessHeight,
  offsetsOf,
  planWindow,
  rangeOf,
  type WindowPlanInput,
} from '../../../src/ui/state/card-window-plan.ts';

/** A thousand cards of 100 px, none pinned, all mounted already (no budget limit in play). */
const input = (over: Partial<WindowPlanInput> = {}): WindowPlanInput => ({
  heights: Array.from({ length: 1000 }, () => 100),
  viewTop: 0,
  viewBottom: 500,
  overscanPx: 200,
  pinned: new Set(),
  mounted: () => true,
  mountBudget: 3,
  ...over,
});

const indexes = (plan: ReturnType<typeof planWindow>) => plan.drawn.map((slot) => slot.index);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('card window maths', () => {
  it('places each card after the ones before it', () => {
    expect(offsetsOf([100, 50, 200])).toEqual({ tops: [0, 100, 150], total: 350 });
    const { tops } = offsetsOf([100, 50, 200]);
    expect(rangeOf(tops, [100, 50, 200], 120, 160)).toEqual({ start: 1, end: 3 });
    // A card ending exactly where the range starts does not overlap it.
    expect(rangeOf(tops, [100, 50, 200], 100, 101)).toEqual({ start: 1, end: 2 });
  });

  it('draws the cards in view and the overscan, and nothing else', () => {
    const plan = planWindow(input({ viewTop: 50_000, viewBottom: 50_500 }));
    // In view: 500..504; overscan of 200 px: two cards each side.
    expect(indexes(plan)).toEqual(range(498, 507));
  });

  it('keeps the list as tall as every card, the empty space standing for the undrawn', () => {
    const plan = planWindow(input({ viewTop: 50_000, viewBottom: 50_500 }));
    expect(plan.totalHeight).toBe(100_000);
    expect(plan.drawn[0]).toEqual({ index: 498, spaceBefore: 49_800 });
    expect(plan.drawn.slice(1).every((slot) => slot.spaceBefore === 0)).toBe(true);
    expect(plan.spaceAfter).toBe(100_000 - 50_700);
    const drawnHeight = plan.drawn.length * 100;
    const spaces = plan.drawn.reduce((sum, slot) => sum + slot.spaceBefore, 0) + plan.spaceAfter;
    expect(spaces + drawnHeight).toBe(plan.totalHeight);
  });

  it('uses each card its own height, so cards of any height keep their places', () => {
    const heights = Array.from({ length: 100 }, (_, i) => 50 + (i % 7) * 30);
    const { tops, total } = offsetsOf(heights);
    const plan = planWindow(input({ heights, viewTop: tops[40]!, viewBottom: tops[40]! + 1 }));
    expect(plan.drawn.find((slot) => slot.index === 40)).toBeDefined();
    let at = 0;
    for (const slot of plan.drawn) {
      at += slot.spaceBefore;
      expect(at).toBe(tops[slot.index]);
      at += heights[slot.index]!;
    }
    expect(at + plan.spaceAfter).toBe(total);
  });

  it('draws pinned cards wherever they are, each with the space before it', () => {
    const plan = planWindow(
      input({ viewTop: 50_000, viewBottom: 50_500, pinned: new Set([0, 1, 900]) }),
    );
    expect(indexes(plan)).toEqual([0, 1, ...range(498, 507), 900]);
    expect(plan.drawn.find((slot) => slot.index === 498)!.spaceBefore).toBe(49_800 - 200);
    expect(plan.drawn.find((slot) => slot.index === 900)!.spaceBefore).toBe(90_000 - 50_700);
    expect(plan.spaceAfter).toBe(100_000 - 90_100);
  });

  it('bounds the cards drawn by the view, however long the list', () => {
    for (const count of [100, 1000, 10_000]) {
      const heights = Array.from({ length: count }, () => 100);
      const plan = planWindow(input({ heights, viewTop: 5000, viewBottom: 5500 }));
      expect(plan.drawn.length).toBe(9);
    }
  });

  it('draws the first cards while the list starts below the view, and none once it is far below', () => {
    expect(indexes(planWindow(input({ viewTop: -600, viewBottom: -100 })))).toEqual([0]);
    expect(indexes(planWindow(input({ viewTop: -2000, viewBottom: -1500 })))).toEqual([]);
    // Scrolled past the end: the last cards within the overscan.
    expect(indexes(planWindow(input({ viewTop: 100_000, viewBottom: 100_500 })))).toEqual([
      998, 999,
    ]);
  });

  it('mounts at most the budget of new cards a frame, those in view first, and says how many wait', () => {
    const mounted = new Set<number>();
    const frame = () =>
      planWindow(input({ viewTop: 50_000, viewBottom: 50_500, mounted: (i) => mounted.has(i) }));
    const first = frame();
    expect(indexes(first)).toEqual([500, 501, 502]);
    expect(first.waiting).toBe(6);
    // Frame by frame, the mounted set grows until every wanted card is drawn.
    let plan = first;
    let frames = 1;
    while (plan.waiting > 0) {
      for (const slot of plan.drawn) mounted.add(slot.index);
      plan = frame();
      frames++;
      expect(plan.drawn.filter((slot) => !mounted.has(slot.index)).length).toBeLessThanOrEqual(3);
    }
    expect(frames).toBe(3);
    expect(indexes(plan)).toEqual(range(498, 507));
  });

  it('keeps mounted cards without spending the budget, and lets go of those out of the window', () => {
    const mounted = new Set(range(0, 20));
    const plan = planWindow(
      input({ viewTop: 1000, viewBottom: 1500, mounted: (i) => mounted.has(i), mountBudget: 0 }),
    );
    expect(indexes(plan)).toEqual(range(8, 17));
    expect(plan.waiting).toBe(0);
  });

  it('mounts pinned cards before the overscan', () => {
    const plan = planWindow(
      input({
        viewTop: 50_000,
        viewBottom: 50_100,
        pinned: new Set([7]),
        mounted: () => false,
        mountBudget: 2,
      }),
    );
    expect(indexes(plan)).toEqual([7, 500]);
  });

  it('plans a scroll from kept offsets reading only the cards it draws and a binary search', () => {
    // 100,000 cards of 100 px, the view near the end: a plan per scroll frame must not walk them.
    const count = 100_000;
    let reads = 0;
    const counted = (values: number[]) =>
      new Proxy(values, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
    const plain = Array.from({ length: count }, () => 100);
    const { tops, total } = offsetsOf(plain);
    const heights = counted(plain);
    const offsets = { tops: counted(tops), total };
    const plan = planWindow(
      input({ heights, offsets, viewTop: 9_000_000, viewBottom: 9_000_500, pinned: new Set([0]) }),
    );
    expect(indexes(plan)).toEqual([0, ...range(89_998, 90_007)]);
    expect(plan.totalHeight).toBe(10_000_000);
    // Two binary searches per range (about 17 steps each), then each drawn card's place.
    expect(reads).toBeLessThan(400);
    // The same plan as from the heights alone.
    expect(
      planWindow(
        input({ heights: plain, viewTop: 9_000_000, viewBottom: 9_000_500, pinned: new Set([0]) }),
      ),
    ).toEqual(plan);
  });

  it('finds the cards overlapping a range by their tops, as a walk from the first would', () => {
    const heights = Array.from({ length: 200 }, (_, i) => (i % 5) * 40);
    const { tops, total } = offsetsOf(heights);
    for (let from = -50; from < total + 50; from += 37) {
      const to = from + 123;
      let start = 0;
      while (start < tops.length && tops[start]! + heights[start]! <= from) start++;
      let end = start;
      while (end < tops.length && tops[end]! < to) end++;
      expect(rangeOf(tops, heights, from, to)).toEqual({ start, end });
    }
  });

  it('guesses an unmeasured card as tall as the mean of the measured ones', () => {
    expect(guessHeight([], 300)).toBe(300);
    expect(guessHeight([200, 400], 300)).toBe(300);
    expect(guessHeight([250], 300)).toBe(250);
  });
});
