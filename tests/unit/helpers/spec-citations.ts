/**
 * Where the digest's rule ids (docs/tasks-2026-07-28.md) are cited: by the
 * tests (an id mentioned in a test file, as test names and comments do) and
 * by the scenario registry (each scenario's `specIds`). Shared by the
 * coverage test and the learning-material test.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..', '..');
export const DIGEST = join(ROOT, 'docs', 'tasks-2026-07-28.md');

/** The rule ids the digest defines, in its order: each rule is a list item starting with its id. */
export function digestIds(markdown = readFileSync(DIGEST, 'utf8')): string[] {
  return [...markdown.matchAll(/^- ([CTM]\d+) /gm)].map((m) => m[1]!);
}

/** Ids mentioned in `source`: `T6`, `(M4)`, `T2-T4` count; `T60`, `AT6`, `T6x` do not. */
export function idsIn(source: string): Set<string> {
  return new Set(
    [...source.matchAll(/(?<![A-Za-z0-9_])([CTM]\d{1,2})(?![A-Za-z0-9_])/g)].map((m) => m[1]!),
  );
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Each digest id -> the test files (relative to the repository) that cite it.
 * `exclude` leaves out files whose mentions are not proofs (the coverage test itself).
 */
export function testCitations(
  ids: readonly string[],
  exclude: readonly string[] = [],
): Map<string, string[]> {
  const known = new Set(ids);
  const byId = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const file of tsFiles(join(ROOT, 'tests'))) {
    const name = relative(ROOT, file);
    if (exclude.includes(name)) continue;
    for (const id of idsIn(readFileSync(file, 'utf8'))) if (known.has(id)) byId.get(id)!.push(name);
  }
  return byId;
}

/** What the coverage check needs of a scenario. */
export interface CitingScenario {
  id: string;
  specIds: readonly string[];
}

function isScenario(value: unknown): value is CitingScenario {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { id?: unknown; specIds?: unknown };
  return (
    typeof v.id === 'string' &&
    Array.isArray(v.specIds) &&
    v.specIds.every((s) => typeof s === 'string')
  );
}

/** Scenarios found among a module's exports: arrays, maps or records of `{id, specIds}`. */
export function scenariosIn(exports: Record<string, unknown>): CitingScenario[] {
  const found = new Map<string, CitingScenario>();
  for (const value of Object.values(exports)) {
    const candidates = Array.isArray(value)
      ? value
      : value instanceof Map
        ? [...value.values()]
        : typeof value === 'object' && value !== null
          ? Object.values(value)
          : [];
    for (const c of candidates) if (isScenario(c)) found.set(c.id, c);
  }
  return [...found.values()];
}

/**
 * The scenario registry (src/scenarios), or undefined while that folder has
 * none. Globbed rather than imported, so a checkout without it still runs.
 */
const REGISTRY = import.meta.glob([
  '../../../src/scenarios/index.ts',
  '../../../src/scenarios/registry.ts',
]);

export async function loadScenarios(): Promise<CitingScenario[] | undefined> {
  const loaders = Object.values(REGISTRY);
  if (loaders.length === 0) return undefined;
  const found = new Map<string, CitingScenario>();
  for (const load of loaders)
    for (const s of scenariosIn((await load()) as Record<string, unknown>)) found.set(s.id, s);
  return [...found.values()];
}
