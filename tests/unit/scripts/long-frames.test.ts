/**
 * The page-follow bench's Long Animation Frames summary
 * (`scripts/bench/long-frames.ts`) on a hand-made entry: a script's
 * character offset in a minified build becomes its function's file, line
 * and name in the sources through a source map; a frame's time splits into
 * scripts, rendering and the rest (the browser's own work), a script run in
 * rendering counted once; frames outside the window are left out and the
 * longest come first.
 */
import { TraceMap } from '@jridgewell/trace-mapping';
import { describe, expect, it } from 'vitest';
import { sourceFor } from '../../../scripts/bench/cpu-profile.ts';
import {
  formatLongFrames,
  locatorFor,
  longestFrames,
  positionAt,
  type LongFrameEntry,
  type LongFrameScript,
} from '../../../scripts/bench/long-frames.ts';

const URL = 'http://127.0.0.1:4173/assets/index-abc.js';
/** A two-line "build": the function `b` starts at line 2, column 0 (character 15). */
const BUILD = 'function a(){}\nfunction b(){x()}';
const SOURCE = [
  ...Array.from({ length: 41 }, (_, i) => `// line ${i + 1}`),
  '  #fireDue(sliced = false): void {',
].join('\n');
/** Line 2, column 0 of the build -> line 42, column 2 of src/clock/world-clock.ts (VLQ `AAyCE`: 0, 0, +41, +2). */
const MAP = new TraceMap({
  version: 3,
  sources: ['../../src/clock/world-clock.ts'],
  sourcesContent: [SOURCE],
  names: [],
  mappings: ';AAyCE',
});

const script = (overrides: Partial<LongFrameScript>): LongFrameScript => ({
  invoker: 'TimerHandler:setTimeout',
  invokerType: 'user-callback',
  sourceURL: URL,
  sourceFunctionName: 'b',
  sourceCharPosition: BUILD.indexOf('function b'),
  startTime: 1000,
  duration: 10,
  forcedStyleAndLayoutDuration: 0,
  ...overrides,
});

/** 1,000..1,300 ms: a 240 ms timer, then rendering from 1,250 (a 20 ms rAF callback in it, 5 ms forced layout). */
const LONG: LongFrameEntry = {
  startTime: 1000,
  duration: 300,
  blockingDuration: 250,
  renderStart: 1250,
  styleAndLayoutStart: 1270,
  scripts: [
    script({
      startTime: 1255,
      duration: 20,
      forcedStyleAndLayoutDuration: 5,
      invoker: 'FrameRequestCallback',
      sourceCharPosition: -1,
      sourceFunctionName: '',
    }),
    script({ startTime: 1005, duration: 240 }),
  ],
};

const locate = locatorFor(new Map([[URL, { text: BUILD, map: MAP }]]), sourceFor);

describe('long animation frames', () => {
  it('finds a character offset as a line and column', () => {
    expect(positionAt(BUILD, 0)).toEqual({ line: 0, column: 0 });
    expect(positionAt(BUILD, 15)).toEqual({ line: 1, column: 0 });
    expect(positionAt(BUILD, 20)).toEqual({ line: 1, column: 5 });
  });

  it('maps a script to its source function and splits the frame', () => {
    const [frame] = longestFrames([LONG], locate, 900, 2000);
    expect(frame).toEqual({
      atMs: 100,
      ms: 300,
      blockingMs: 250,
      scriptMs: 260,
      forcedStyleAndLayoutMs: 5,
      renderMs: 50,
      styleAndLayoutMs: 30,
      // 300 - 50 rendering - 240 of script before it (the rAF callback is inside the rendering).
      otherMs: 10,
      scripts: [
        {
          invoker: 'TimerHandler:setTimeout',
          invokerType: 'user-callback',
          where: '#fireDue (src/clock/world-clock.ts:42)',
          ms: 240,
          forcedStyleAndLayoutMs: 0,
        },
        {
          invoker: 'FrameRequestCallback',
          invokerType: 'user-callback',
          where: '(anonymous) (index-abc.js)',
          ms: 20,
          forcedStyleAndLayoutMs: 5,
        },
      ],
    });
  });

  it('keeps the longest frames overlapping the window, longest first', () => {
    const short = { ...LONG, startTime: 1500, duration: 60, renderStart: 0, scripts: [] };
    const before = { ...LONG, startTime: 100, duration: 500 };
    const frames = longestFrames([short, before, LONG], locate, 900, 2000, 5);
    expect(frames.map((f) => f.ms)).toEqual([300, 60]);
    // Drew nothing, ran no script over 5 ms: all of it is the browser's own.
    expect(frames[1]).toMatchObject({ renderMs: 0, scriptMs: 0, otherMs: 60 });
    expect(longestFrames([short, LONG], locate, 900, 2000, 1)).toHaveLength(1);
    expect(formatLongFrames('x', frames).join('\n')).toContain(
      '#fireDue (src/clock/world-clock.ts:42)',
    );
    expect(formatLongFrames('x', [])).toEqual(['x: no frame of 50 ms or more']);
  });
});
