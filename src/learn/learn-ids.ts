/**
 * The names the learning material points at: spec rule ids from
 * docs/tasks-2026-07-28.md, and the ids of the scripted scenarios that
 * open at `?scenario=<id>` (src/scenarios). Kept here as plain strings so
 * the material stays pure data; tests/unit/learn/ checks both lists
 * against their sources.
 */

/** A rule id of the digest: C1-C10 (core), T1-T22 (tasks), M1-M5 (misconceptions). */
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
] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

/** The page address that opens a scenario in the playground. */
export function scenarioHref(id: ScenarioId): string {
  return `?scenario=${encodeURIComponent(id)}`;
}
