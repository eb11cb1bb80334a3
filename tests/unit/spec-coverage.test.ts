/**
 * Every rule of the digest (docs/tasks-2026-07-28.md: C1-C10, T1-T22,
 * M1-M9) is proven somewhere: cited by at least one test, or in the
 * `specIds` of at least one scenario of the registry (src/scenarios).
 * On failure it lists the rules nobody proves.
 */
import { describe, expect, it } from 'vitest';
import {
  digestIds,
  idsIn,
  loadScenarios,
  scenariosIn,
  testCitations,
} from './helpers/spec-citations.ts';

const SELF = 'tests/unit/spec-coverage.test.ts';

describe('spec coverage', () => {
  it('reads the 41 rule ids of the digest, in order', () => {
    const ids = digestIds();
    const expected = [...range('C', 10), ...range('T', 22), ...range('M', 9)];
    expect(ids).toEqual(expected);
  });

  it('every digest rule is cited by a test or a scenario', async () => {
    const ids = digestIds();
    const byTests = testCitations(ids, [SELF]);
    const scenarios = (await loadScenarios()) ?? [];
    const byScenarios = new Set(scenarios.flatMap((s) => s.specIds));
    const uncovered = ids.filter((id) => byTests.get(id)!.length === 0 && !byScenarios.has(id));
    expect(uncovered, `rules no test and no scenario cites: ${uncovered.join(', ')}`).toEqual([]);
  });

  it('scenarios cite only rules the digest has', async () => {
    const known = new Set(digestIds());
    const scenarios = (await loadScenarios()) ?? [];
    const unknown = scenarios.flatMap((s) =>
      s.specIds.filter((id) => !known.has(id)).map((id) => `${s.id}: ${id}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe('how citations are found', () => {
  it('counts T6, (M4), T2-T4 and "C8:" but not T123, AT6 or T6x', () => {
    expect([...idsIn('it("T6, T7: flat", ...) // (M4) T2-T4 C8: re-issue')].sort()).toEqual([
      'C8',
      'M4',
      'T2',
      'T4',
      'T6',
      'T7',
    ]);
    expect([...idsIn('T123 AT6 T6x t6 _T6 T6_')]).toEqual([]);
  });

  it('finds scenarios in an array, a record or a map of exports', () => {
    const a = { id: 'a', specIds: ['T1'] };
    const b = { id: 'b', specIds: ['T2'] };
    expect(scenariosIn({ list: [a], other: 3 }).map((s) => s.id)).toEqual(['a']);
    expect(scenariosIn({ byId: { a, b } }).map((s) => s.id)).toEqual(['a', 'b']);
    expect(scenariosIn({ map: new Map([['b', b]]) }).map((s) => s.id)).toEqual(['b']);
    expect(scenariosIn({ notScenarios: [{ id: 'x' }], text: 'T1' })).toEqual([]);
  });
});

function range(prefix: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
}
