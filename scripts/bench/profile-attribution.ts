/**
 * Where a CPU profile's time went, by subsystem rather than by function:
 * inclusive time per source file or package (a sample counts once for each
 * file on its stack, however many of its frames are there), inclusive time
 * of named entry points (a function on the stack, or the outermost frame the
 * browser or a microtask ran), and what the browser ran at the top of each
 * stack. Self time per function alone is flat when a cost is spread over
 * many small functions (a Svelte flush, xstate's step): these say which
 * subsystem the time was spent under. Pure: the caller resolves each frame
 * to its source (`cpu-profile.ts` does it through the build's source maps).
 */

/** A position in one of the page's scripts, as a CDP `Profiler.Profile` node has it (0-based). */
export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

/** The part of Chromium's CDP `Profiler.Profile` the summaries read. */
export interface Profile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

/** Where a frame's code is: `file` is the source path from the repository's root (`src/…`, `node_modules/<package>/…`), a script's name when it has no source map, or `''` for the browser's own (native) functions. */
export interface FrameSource {
  file: string;
  /** 1-based line of the function in `file`, when known. */
  line: number | undefined;
  name: string;
}

/** A named part of the page's work, measured inclusively. */
export interface EntryPoint {
  label: string;
  /** Whether a frame is this entry point. */
  matches(source: FrameSource): boolean;
  /** Only the stack's outermost frame counts (what the browser or a microtask ran), not any frame on it. */
  outermost?: boolean;
}

/** One row of a table: time and its share of the busy (not idle) sampled time. */
export interface Share {
  what: string;
  ms: number;
  percent: number;
}

export interface Attribution {
  /** Sampled time that was not idle. */
  busyMs: number;
  /** Not idle, of all sampled time. */
  busyPercent: number;
  /** Self time per function (`name (file:line)`), largest first. */
  self: Share[];
  /** Inclusive time per source file or package, largest first; `selfPercent` is the time in the file's own frames. */
  byFile: (Share & { selfPercent: number })[];
  /** Each entry point's inclusive time, in the order given. */
  entries: Share[];
  /** Inclusive time per outermost frame: what the browser (an event, a timer, a frame) or a microtask ran. */
  outermost: Share[];
}

/** The profiler's own nodes: not code; `(program)` and GC are reported as themselves, idle is left out. */
const ROOT = '(root)';
const IDLE = '(idle)';
const SYNTHETIC = new Set([ROOT, IDLE, '(program)', '(garbage collector)']);

/** The package a file belongs to (`node_modules/@scope/name/…` → `@scope/name`; the innermost `node_modules` when nested), or the file itself. */
export function groupOf(file: string): string {
  const inPackage = /^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (inPackage) return inPackage[1]!;
  return file === '' ? '(native)' : file;
}

/** `name (file:line)`, packages' files without their `node_modules/`. */
export function describeFrame(source: FrameSource): string {
  const file = source.file.replace(/^.*node_modules\//, '') || 'native';
  return `${source.name} (${file}${source.line === undefined ? '' : `:${source.line}`})`;
}

interface Stack {
  /** What the sample's time is filed under as self time. */
  self: string;
  /** Distinct groups on the stack, the leaf's first. */
  groups: readonly string[];
  /** Indexes of the entry points on the stack. */
  entries: readonly number[];
  outermost: string;
}

/**
 * The tables of one profile: every sample's time (the gap to the next
 * sample, as DevTools counts it) is filed under each file/package on its
 * stack once, each entry point on it once, and its outermost frame. With
 * `within`, only the samples under that entry point are filed (what the
 * Svelte flush spent its time in, say); shares stay of the whole busy time.
 */
export function attribute(
  profile: Profile,
  sourceOf: (frame: CallFrame) => FrameSource,
  entryPoints: readonly EntryPoint[] = [],
  top = 15,
  within?: EntryPoint,
): Attribution {
  // Only the samples under `within` are filed (shares stay of the whole busy time): an extra entry point marks them.
  const marks = within ? [...entryPoints, within] : entryPoints;
  const withinIndex = within ? entryPoints.length : -1;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);

  const stacks = new Map<number, Stack | undefined>();
  /** A node's stack, built from its parent's (memoised: a profile's nodes share their prefixes). */
  const stackOf = (id: number): Stack | undefined => {
    if (stacks.has(id)) return stacks.get(id);
    const frame = byId.get(id)!.callFrame;
    let stack: Stack | undefined;
    if (frame.functionName === ROOT) stack = undefined;
    else if (SYNTHETIC.has(frame.functionName))
      stack = {
        self: frame.functionName,
        groups: [frame.functionName],
        entries: [],
        outermost: frame.functionName,
      };
    else {
      const parentId = parentOf.get(id);
      const below = parentId === undefined ? undefined : stackOf(parentId);
      const source = sourceOf(frame);
      const where = describeFrame(source);
      const group = groupOf(source.file);
      const isOutermost = below === undefined;
      const entries = marks.flatMap((entry, index) =>
        (!entry.outermost || isOutermost) && entry.matches(source) ? [index] : [],
      );
      stack = {
        self: where,
        groups: [group, ...(below?.groups ?? []).filter((g) => g !== group)],
        entries: [...new Set([...entries, ...(below?.entries ?? [])])],
        outermost: below?.outermost ?? where,
      };
    }
    stacks.set(id, stack);
    return stack;
  };

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const selfByGroup = new Map<string, number>();
  const outermost = new Map<string, number>();
  const entryUs = entryPoints.map(() => 0);
  const add = (map: Map<string, number>, key: string, us: number) =>
    map.set(key, (map.get(key) ?? 0) + us);
  let idleUs = 0;
  let totalUs = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time is the gap to the next sample (the last one gets none).
  for (let i = 0; i < samples.length - 1; i++) {
    const us = deltas[i + 1] ?? 0;
    const node = byId.get(samples[i]!);
    if (!node) continue;
    totalUs += us;
    if (node.callFrame.functionName === IDLE) {
      idleUs += us;
      continue;
    }
    const stack = stackOf(node.id);
    if (!stack || (within && !stack.entries.includes(withinIndex))) continue;
    add(self, stack.self, us);
    add(selfByGroup, stack.groups[0]!, us);
    for (const group of stack.groups) add(inclusive, group, us);
    for (const index of stack.entries) if (index !== withinIndex) entryUs[index]! += us;
    add(outermost, stack.outermost, us);
  }
  const busyUs = totalUs - idleUs;
  const share = (what: string, us: number): Share => ({
    what,
    ms: us / 1000,
    percent: busyUs === 0 ? 0 : (100 * us) / busyUs,
  });
  const ranked = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([what, us]) => share(what, us));
  return {
    busyMs: busyUs / 1000,
    busyPercent: totalUs === 0 ? NaN : (100 * busyUs) / totalUs,
    self: ranked(self),
    byFile: ranked(inclusive).map((row) => ({
      ...row,
      selfPercent: share(row.what, selfByGroup.get(row.what) ?? 0).percent,
    })),
    entries: entryPoints.map((entry, index) => share(entry.label, entryUs[index]!)),
    outermost: ranked(outermost),
  };
}
