/**
 * Every rule of the digest (docs/tasks-2026-07-28.md) is proven somewhere:
 * named by at least one test (in the name it is declared with, not in a
 * comment), or declared in the `specIds` of at least one scenario of the
 * registry (src/scenarios). On failure it lists the rules nobody proves.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  declaredTests,
  digestIds,
  idsIn,
  scenarioRules,
  testCitations,
} from './helpers/spec-citations.ts';

describe('spec coverage', () => {
  // Parses every test file with TypeScript once (cached per process): seconds on a loaded
  // machine, so in a hook with room for it rather than inside the first test's 20 s.
  beforeAll(() => void testCitations(digestIds()), 120_000);

  it('reads the rule ids of the digest in order: C1-C10, T1-T22, then M1 onwards', () => {
    const ids = digestIds();
    const family = (prefix: string) => ids.filter((id) => id.startsWith(prefix));
    expect(family('C')).toEqual(range('C', 10));
    expect(family('T')).toEqual(range('T', 22));
    expect(family('M')).toEqual(range('M', family('M').length));
    expect(family('M').length).toBeGreaterThanOrEqual(5);
    expect(ids).toEqual([...family('C'), ...family('T'), ...family('M')]);
  });

  it('every digest rule is named by a test or declared by a scenario', () => {
    const ids = digestIds();
    const byTests = testCitations(ids);
    const byScenarios = new Set([...scenarioRules().values()].flat());
    const uncovered = ids.filter((id) => byTests.get(id)!.length === 0 && !byScenarios.has(id));
    expect(
      uncovered,
      `rules no test names and no scenario declares: ${uncovered.join(', ')}`,
    ).toEqual([]);
  });

  it('scenarios declare only rules the digest has', () => {
    const known = new Set(digestIds());
    const unknown = [...scenarioRules()].flatMap(([id, rules]) =>
      rules.filter((rule) => !known.has(rule)).map((rule) => `${id}: ${rule}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe('how citations are found', () => {
  it('counts T6, (M4), T2-T4 and "C8:" but not T123, AT6 or T6x', () => {
    expect([...idsIn('T6, T7: flat (M4) T2-T4 C8: re-issue')].sort()).toEqual([
      'C8',
      'M4',
      'T2',
      'T4',
      'T6',
      'T7',
    ]);
    expect([...idsIn('T123 AT6 T6x t6 _T6 T6_')]).toEqual([]);
  });

  it('reads only the names tests and groups are declared with, never comments or other strings', () => {
    const source = [
      '// T1: a comment cites nothing',
      "/** T2 in JSDoc */ const note = 'T3: a string that names no test';",
      "describe('T4: a group', () => {",
      "  it('T5: a test', () => { expect(/T6/.test('T6')).toBe(true); });",
      '  it.each([1, 2])(`T7: row ${0}`, () => {});',
      "  test.skip('T8: ' + 'joined', () => {});",
      '  it.concurrent("T9: it\'s double-quoted", async () => {});',
      '  it(name, () => {}); // T10: a name not written as a literal',
      "  test.describe('T11: a Playwright group', () => {});",
      "  helper.it('T12: not a test function', () => {});",
      '});',
    ].join('\n');
    const found = declaredTests(source);
    expect(found.map((t) => [t.kind, t.name])).toEqual([
      ['describe', 'T4: a group'],
      ['it', 'T5: a test'],
      ['it', 'T7: row ${}'],
      ['test', 'T8: joined'],
      ['it', "T9: it's double-quoted"],
      ['describe', 'T11: a Playwright group'],
    ]);
    expect(found.map((t) => t.line)).toEqual([3, 4, 5, 6, 7, 9]);
  });
});

function range(prefix: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
}
