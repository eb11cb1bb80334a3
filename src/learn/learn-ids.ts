/**
 * The names the learning material points at: spec rule ids from
 * docs/tasks-2026-07-28.md, the ids of the scripted scenarios that open
 * at `?scenario=<id>` (src/scenarios), and tests by file and name. Kept
 * here as plain strings so the material stays pure data; tests/unit/learn/
 * checks each against its source.
 */

/** A rule id of the digest: C1-C10 (core), T1-T22 (tasks), M1-M9 (misconceptions). */
export type SpecId = `C${number}` | `T${number}` | `M${number}`;

/** The scenarios the material cites; each opens the playground at `?scenario=<id>`. */
export const SCENARIO_IDS = [
  'happy-path',
  'extension-off',
  'drop-after-create',
  'reload-mid-task',
  'kill-memory-store',
  'kill-durable-store',
  'input-required-once',
  'partial-answers',
  'cancel-race',
  'ignores-cancel',
  'tool-vs-protocol-error',
  'ttl-expiry',
  'removed-methods',
  'no-tool-flag',
  'handle-not-session',
  'poll-interval-honoured',
  'push-and-poll',
  'result-type',
  'lost-handle',
  'lost-request',
] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

/**
 * A test that proves what no cited scenario shows: its file (from the
 * repository root) and the exact name it is declared with. Shown as text;
 * tests/unit/learn/ checks that the file declares a test of that name.
 */
export interface TestCitation {
  file: string;
  name: string;
}

/** The page address that opens a scenario in the playground and plays it at once (the learner asked to see it). */
export function scenarioHref(id: ScenarioId): string {
  return `?scenario=${encodeURIComponent(id)}&play`;
}
