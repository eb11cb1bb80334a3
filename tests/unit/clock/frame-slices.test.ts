/**
 * When the page's main-thread work is cut (src/clock/frame-slices.ts): never
 * before a minimum slice, at once when a frame is due (the last frame began
 * a frame gap ago), and at a maximum slice even when none is; frames are
 * watched through one requestAnimationFrame at a time. On a simulated
 * clock and frames; no real time passes.
 */
import { describe, expect, it } from 'vitest';
import {
  FRAME_SLICES,
  frameSlices,
  slicePolicyFromAddress,
  wholeTasks,
} from '../../../src/clock/frame-slices.ts';

function simulatedFrames(policy = { minSliceMs: 4, frameGapMs: 16, maxSliceMs: 40 }) {
  let now = 1_000;
  const frames: ((at: number) => void)[] = [];
  const posted: (() => void)[] = [];
  const ahead: (() => void)[] = [];
  const slices = frameSlices(
    {
      now: () => now,
      requestFrame: (callback) => frames.push(callback),
      post: (callback) => posted.push(callback),
      postAhead: (callback) => ahead.push(callback),
    },
    policy,
  );
  return {
    slices,
    frames,
    posted,
    ahead,
    advance: (ms: number) => (now += ms),
    get now() {
      return now;
    },
    /** Draws the frames asked for, at the time it is now. */
    drawFrame() {
      for (const frame of frames.splice(0)) frame(now);
    },
  };
}

/**
 * A slice that starts now and works on in 5 ms steps, a frame drawn at each
 * (so a frame is never due): how long it runs before it is cut, in ms.
 */
function msUntilCutWithFramesDrawn(sim: ReturnType<typeof simulatedFrames>): number {
  const startedAt = sim.now;
  while (sim.now - startedAt < 1_000) {
    sim.advance(5);
    // Asked once before the frame: from then on the frames are watched.
    sim.slices.shouldYield(startedAt, 1);
    sim.drawFrame();
    if (sim.slices.shouldYield(startedAt, 1)) return sim.now - startedAt;
  }
  return Infinity;
}

describe('frameSlices', () => {
  it('a slice shorter than the minimum is never cut, even with a frame long overdue', () => {
    const sim = simulatedFrames();
    sim.advance(500);
    const startedAt = sim.now;
    sim.advance(3);
    expect(sim.slices.shouldYield(startedAt, 1)).toBe(false);
    // Nothing asked for a frame: short work needs none watched.
    expect(sim.frames).toHaveLength(0);
  });

  it('past the minimum, cut once the last frame is a frame gap old, not before', () => {
    const sim = simulatedFrames();
    // The last frame began when the slices were made.
    const startedAt = sim.now;
    sim.advance(10);
    expect(sim.slices.shouldYield(startedAt, 1)).toBe(false);
    sim.advance(6);
    expect(sim.slices.shouldYield(startedAt, 1)).toBe(true);
  });

  it('a frame drawn meanwhile (its timestamp) puts the next cut a frame gap after it', () => {
    const sim = simulatedFrames();
    const startedAt = sim.now;
    sim.advance(20);
    expect(sim.slices.shouldYield(startedAt, 1)).toBe(true);
    expect(sim.frames).toHaveLength(1);
    sim.drawFrame();
    const next = sim.now;
    sim.advance(10);
    expect(sim.slices.shouldYield(next, 1)).toBe(false);
    // One frame watched at a time, however often it is asked.
    sim.slices.shouldYield(next, 1);
    expect(sim.frames).toHaveLength(1);
  });

  it('cut at the maximum slice even when frames keep coming (no task of 50 ms)', () => {
    const sim = simulatedFrames();
    expect(msUntilCutWithFramesDrawn(sim)).toBe(40);
  });

  it('a cut with a frame due goes on after it; a cut at the maximum goes on ahead of drawing', () => {
    const sim = simulatedFrames();
    const ran: string[] = [];
    const startedAt = sim.now;
    sim.advance(20);
    expect(sim.slices.shouldYield(startedAt, 1)).toBe(true);
    sim.slices.later(() => ran.push('after a frame'));
    expect(sim.posted).toHaveLength(1);
    sim.drawFrame();
    sim.advance(1);
    sim.slices.later(() => ran.push('ahead'));
    expect(sim.ahead).toHaveLength(1);
    for (const run of [...sim.posted.splice(0), ...sim.ahead.splice(0)]) run();
    expect(ran).toEqual(['after a frame', 'ahead']);
  });

  it('one cut per frame: until that frame is drawn, only the maximum cuts again, and ahead of drawing', () => {
    const sim = simulatedFrames();
    let startedAt = sim.now;
    sim.advance(20);
    expect(sim.slices.shouldYield(startedAt, 1)).toBe(true);
    sim.slices.later(() => undefined);
    expect(sim.posted).toHaveLength(1);
    // The browser did not draw yet: the next slice is not cut for the same frame.
    startedAt = sim.now;
    sim.advance(10);
    expect(sim.slices.shouldYield(startedAt, 1)).toBe(false);
    sim.advance(30);
    expect(sim.slices.shouldYield(startedAt, 1)).toBe(true);
    sim.slices.later(() => undefined);
    expect(sim.ahead).toHaveLength(1);
    // Drawn: the next frame due may cut again.
    sim.drawFrame();
    startedAt = sim.now;
    sim.advance(20);
    expect(sim.slices.shouldYield(startedAt, 1)).toBe(true);
    sim.slices.later(() => undefined);
    expect(sim.posted).toHaveLength(2);
  });

  it('what a slice leaves to microtasks shortens the next: the task as a whole stays under the maximum', () => {
    // Frames far apart: only the maximum cuts here.
    const sim = simulatedFrames({ minSliceMs: 4, frameGapMs: 10_000, maxSliceMs: 40 });
    const slice = (ms: number, tailMs: number) => {
      const startedAt = sim.now;
      let cutAfter = 0;
      while (!sim.slices.shouldYield(startedAt, 1) && cutAfter < ms)
        cutAfter = sim.advance(1) - startedAt;
      sim.slices.later(() => undefined);
      // The slice's promise continuations run after the cut, in its task; then the next slice starts.
      sim.advance(tailMs);
      sim.ahead.shift()!();
      return cutAfter;
    };
    expect(slice(100, 120)).toBe(40);
    // Its task was 160 ms, its own part a quarter of it: the next runs (40 * (1 + 0.25) / 2) 25 ms.
    expect(slice(100, 75)).toBe(25);
    // 25 of 100 again: 40 * (0.625 + 0.25) / 2 = 17.5.
    expect(slice(100, 0)).toBe(18);
    // No tail any more: back up towards the maximum, 40 * (0.4375 + 1) / 2 = 28.75.
    expect(slice(100, 0)).toBe(29);
  });

  it('a slice cut for a frame teaches nothing: the frame drawn between is no part of its task', () => {
    const sim = simulatedFrames({ minSliceMs: 4, frameGapMs: 16, maxSliceMs: 40 });
    const startedAt = sim.now;
    sim.advance(20);
    expect(sim.slices.shouldYield(startedAt, 1)).toBe(true);
    sim.slices.later(() => undefined);
    sim.advance(200);
    sim.posted.shift()!();
    // The next is cut at the full maximum, as the first would be.
    expect(msUntilCutWithFramesDrawn(sim)).toBe(40);
  });

  it('whole tasks are never cut', () => {
    expect(wholeTasks.shouldYield(-1e9, 1)).toBe(false);
  });
});

describe('slicePolicyFromAddress', () => {
  it('on, three numbers, or else whole tasks', () => {
    expect(slicePolicyFromAddress('?seed=1&slices=on')).toBe(FRAME_SLICES);
    expect(slicePolicyFromAddress('?seed=1&slices=off')).toBe('off');
    expect(slicePolicyFromAddress('?slices=4,12,30')).toEqual({
      minSliceMs: 4,
      frameGapMs: 12,
      maxSliceMs: 30,
    });
    expect(slicePolicyFromAddress('?seed=1')).toBe('off');
    expect(slicePolicyFromAddress('?slices=4,x,30')).toBe('off');
    expect(slicePolicyFromAddress('?slices=4,12')).toBe('off');
    expect(slicePolicyFromAddress('?slices=-1,12,30')).toBe('off');
  });
});
