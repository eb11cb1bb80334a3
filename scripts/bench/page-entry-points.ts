/**
 * The page's named entry points, whose inclusive time the bench's CPU
 * profile summary prints (`cpu-profile.ts`): the Svelte flush, the worker
 * port's message handler, the world clock firing its due timers, IndexedDB
 * callbacks, and the page's own per-message and per-frame work. A function
 * is found by the line its definition starts with, read when this module
 * loads, so a rename fails loudly (the bench does not start, and
 * `tests/unit/scripts/profile-attribution.test.ts` fails) instead of
 * counting nothing.
 */
import { readFileSync } from 'node:fs';
import type { EntryPoint, FrameSource } from './profile-attribution.ts';

const ROOT = new URL('../../', import.meta.url);

/** The 1-based line of `file` (from the repository's root) whose text starts with `definition`, after its indentation. */
export function lineOf(file: string, definition: string): number {
  const lines = readFileSync(new URL(file, ROOT), 'utf8').split('\n');
  const found = lines.flatMap((text, i) =>
    text.trimStart().startsWith(definition) ? [i + 1] : [],
  );
  if (found.length !== 1)
    throw new Error(
      `${file}: ${found.length} lines start with ${JSON.stringify(definition)}; the bench's entry point needs exactly one`,
    );
  return found[0]!;
}

/** A function of the page, by the line its definition starts with. */
export interface PageFunction {
  label: string;
  /** From the repository's root. */
  file: string;
  definition: string;
}

/** The function defined on the line of `file` that starts with `definition`, wherever it is on the stack (the line is read now). */
export function functionAt({ label, file, definition }: PageFunction): EntryPoint {
  const line = lineOf(file, definition);
  return { label, matches: (source: FrameSource) => source.file === file && source.line === line };
}

/** The page's functions timed inclusively, in the order the summary prints them. */
export const PAGE_FUNCTIONS: readonly PageFunction[] = [
  {
    label: 'Svelte flush (Batch#process: effects and template updates)',
    file: 'node_modules/svelte/src/internal/client/reactivity/batch.js',
    definition: '#process() {',
  },
  {
    label: "the worker port's message handler (PortTransport, synchronous part)",
    file: 'src/net/port-transport.ts',
    definition: "this.#port.addEventListener('message'",
  },
  {
    label: "the world clock's due timers (WorldClock#fireDue)",
    file: 'src/clock/world-clock.ts',
    definition: '#fireDue(sliced = false): void {',
  },
  {
    label: 'TaskNews.wire (per wire entry: annotation, news)',
    file: 'src/session/task-news.ts',
    definition: 'wire(entry: WireEntry): void {',
  },
  {
    label: "the wire log's flush (WireLog#flush)",
    file: 'src/ui/state/wire-log.svelte.ts',
    definition: '#flush(): void {',
  },
  {
    label: 'per-frame stores and redraws (one requestAnimationFrame callback)',
    file: 'src/ui/state/per-frame.ts',
    definition: 'const run = () => {',
  },
];

/** Work the browser started from an IndexedDB event, or a store function resumed after awaiting one. */
export const INDEXED_DB_CALLBACKS: EntryPoint = {
  label: 'IndexedDB callbacks (an event or a continuation in idb or src/store)',
  outermost: true,
  matches: (source) =>
    source.file.startsWith('node_modules/idb/') || source.file.startsWith('src/store/'),
};

/** The page's entry points: its functions, then IndexedDB callbacks. */
export const PAGE_ENTRY_POINTS: readonly EntryPoint[] = [
  ...PAGE_FUNCTIONS.map(functionAt),
  INDEXED_DB_CALLBACKS,
];

/** What a profile's summary times: entry points, and the one whose inside is broken down by file. */
export interface ProfileTables {
  entryPoints: readonly EntryPoint[];
  within?: EntryPoint;
}

/** A page's tables: the Svelte flush broken down (which components and state re-ran in it). */
export const PAGE_TABLES: ProfileTables = {
  entryPoints: PAGE_ENTRY_POINTS,
  within: PAGE_ENTRY_POINTS[0]!,
};
