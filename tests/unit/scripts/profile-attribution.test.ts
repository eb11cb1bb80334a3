/**
 * The bench's CPU profile attribution (`scripts/bench/profile-attribution.ts`)
 * on a small hand-made profile: inclusive time per file counts a sample once
 * per file on its stack (recursion and a file called back from another do
 * not count twice), self time goes to the leaf, idle is left out of the
 * busy time, `(program)` and GC stand as themselves, entry points match
 * anywhere on the stack or only as the outermost frame, and packages are
 * grouped by name. Then every entry point of the page is found in today's
 * sources (a renamed function fails here, not silently in the bench).
 */
import { describe, expect, it } from 'vitest';
import {
  lineOf,
  PAGE_ENTRY_POINTS,
  PAGE_FUNCTIONS,
} from '../../../scripts/bench/page-entry-points.ts';
import {
  attribute,
  groupOf,
  type CallFrame,
  type EntryPoint,
  type FrameSource,
  type Profile,
} from '../../../scripts/bench/profile-attribution.ts';

/** A frame whose `url` is already the source file and `lineNumber` (0-based) its function's line. */
const frame = (functionName: string, url = '', lineNumber = 0): CallFrame => ({
  functionName,
  url,
  lineNumber,
  columnNumber: 0,
});
const identity = (f: CallFrame): FrameSource => ({
  file: f.url,
  line: f.url ? f.lineNumber + 1 : undefined,
  name: f.functionName || '(anonymous)',
});

/**
 * (root)
 *  ├─ 2 (idle)
 *  ├─ 3 (program)
 *  ├─ 4 flush            svelte/batch.js:10
 *  │   └─ 5 update       src/ui/Card.svelte:3
 *  │       └─ 6 process  svelte/batch.js:20       (svelte again, under the card)
 *  │           └─ 7 process svelte/batch.js:20    (recursion)
 *  └─ 8 onmessage        src/net/port.ts:5
 *      ├─ 9 wire         src/session/news.ts:7
 *      └─ 10 postMessage (native)
 */
const PROFILE: Profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 3, 4, 8] },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('(program)') },
    {
      id: 4,
      callFrame: frame('flush', 'node_modules/svelte/src/batch.js', 9),
      children: [5],
    },
    { id: 5, callFrame: frame('update', 'src/ui/Card.svelte', 2), children: [6] },
    {
      id: 6,
      callFrame: frame('process', 'node_modules/svelte/src/batch.js', 19),
      children: [7],
    },
    { id: 7, callFrame: frame('process', 'node_modules/svelte/src/batch.js', 19) },
    { id: 8, callFrame: frame('onmessage', 'src/net/port.ts', 4), children: [9, 10] },
    { id: 9, callFrame: frame('wire', 'src/session/news.ts', 6) },
    { id: 10, callFrame: frame('postMessage') },
  ],
  // Each sample lasts until the next: the deltas' first entry is the gap before the first sample.
  //          idle program flush card process(x2) wire native onmessage (last: no time)
  samples: [2, 3, 4, 5, 7, 9, 10, 8, 2],
  timeDeltas: [0, 4000, 1000, 2000, 3000, 5000, 1500, 500, 1000],
  startTime: 0,
  endTime: 18_000,
};

const byWhat = <T extends { what: string }>(rows: readonly T[]) =>
  Object.fromEntries(rows.map((row) => [row.what, row]));

describe('CPU profile attribution', () => {
  const ENTRIES: EntryPoint[] = [
    {
      label: 'svelte flush',
      matches: (s) => s.file === 'node_modules/svelte/src/batch.js' && s.line === 10,
    },
    { label: 'news, anywhere', matches: (s) => s.file === 'src/session/news.ts' },
    {
      label: 'news, outermost only',
      outermost: true,
      matches: (s) => s.file === 'src/session/news.ts',
    },
    { label: 'port, outermost', outermost: true, matches: (s) => s.file === 'src/net/port.ts' },
  ];
  const result = attribute(PROFILE, identity, ENTRIES);

  it('leaves idle out of the busy time, and says how busy the thread was', () => {
    // 4 ms idle of 18 ms sampled; the last sample (idle) has no time.
    expect(result.busyMs).toBe(14);
    expect(result.busyPercent).toBeCloseTo((100 * 14) / 18);
  });

  it('counts a sample once for each file or package on its stack, however often it is there', () => {
    const files = byWhat(result.byFile);
    // svelte: flush 2 + card 3 + process 5 (under the card, twice on its stack) = 10 ms, self 2 + 5.
    expect(files['svelte']).toMatchObject({ ms: 10, percent: (100 * 10) / 14 });
    expect(files['svelte']!.selfPercent).toBeCloseTo((100 * 7) / 14);
    expect(files['src/ui/Card.svelte']).toMatchObject({ ms: 8, selfPercent: (100 * 3) / 14 });
    expect(files['src/net/port.ts']).toMatchObject({ ms: 1.5 + 0.5 + 1 });
    expect(files['src/session/news.ts']).toMatchObject({ ms: 1.5 });
    expect(files['(native)']).toMatchObject({ ms: 0.5 });
    expect(files['(program)']).toMatchObject({ ms: 1, selfPercent: (100 * 1) / 14 });
    expect(files['(idle)']).toBeUndefined();
    expect(result.byFile.map((row) => row.what)).toEqual([
      'svelte',
      'src/ui/Card.svelte',
      'src/net/port.ts',
      'src/session/news.ts',
      '(program)',
      '(native)',
    ]);
  });

  it('gives self time to the leaf function, by name and place', () => {
    expect(byWhat(result.self)).toMatchObject({
      'process (svelte/src/batch.js:20)': { ms: 5 },
      'update (src/ui/Card.svelte:3)': { ms: 3 },
      'flush (svelte/src/batch.js:10)': { ms: 2 },
      'postMessage (native)': { ms: 0.5 },
    });
  });

  it('times an entry point wherever it is on the stack, or only as the outermost frame', () => {
    expect(result.entries.map((e) => [e.what, e.ms])).toEqual([
      ['svelte flush', 10],
      ['news, anywhere', 1.5],
      ['news, outermost only', 0],
      ['port, outermost', 3],
    ]);
  });

  it('files each sample under the outermost frame: what the browser or a microtask ran', () => {
    expect(byWhat(result.outermost)).toMatchObject({
      'flush (svelte/src/batch.js:10)': { ms: 10 },
      'onmessage (src/net/port.ts:5)': { ms: 3 },
      '(program)': { ms: 1 },
    });
  });

  it('keeps the top rows only, largest first', () => {
    const top2 = attribute(PROFILE, identity, [], 2);
    expect(top2.byFile.map((row) => row.what)).toEqual(['svelte', 'src/ui/Card.svelte']);
    expect(top2.self).toHaveLength(2);
    expect(top2.entries).toEqual([]);
  });

  it('groups a package by its name, scoped or not; a source file stands as itself', () => {
    expect(groupOf('node_modules/svelte/src/internal/client/render.js')).toBe('svelte');
    expect(groupOf('node_modules/@sveltejs/kit/x.js')).toBe('@sveltejs/kit');
    expect(groupOf('node_modules/.pnpm/node_modules/idb/build/index.js')).toBe('idb');
    expect(groupOf('src/session/task-news.ts')).toBe('src/session/task-news.ts');
    expect(groupOf('')).toBe('(native)');
  });

  it('finds every entry point of the page in the sources: one definition line each', () => {
    for (const [i, fn] of PAGE_FUNCTIONS.entries()) {
      const line = lineOf(fn.file, fn.definition);
      expect(PAGE_ENTRY_POINTS[i]!.matches({ file: fn.file, line, name: '' }), fn.label).toBe(true);
      expect(PAGE_ENTRY_POINTS[i]!.matches({ file: fn.file, line: line + 1, name: '' })).toBe(
        false,
      );
    }
    expect(() => lineOf('src/session/task-news.ts', 'aFunctionNobodyWrote(')).toThrow(
      /0 lines start with/,
    );
  });
});
