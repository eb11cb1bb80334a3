/**
 * The learning material (src/learn) stays honest: every spec id it cites
 * exists in the digest and is proven by a test or a scenario, every
 * scenario it links to is one the registry has (once src/scenarios has
 * one), every test it names is declared under that exact name, and its
 * texts stay short and well formed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTION_CHECKLIST } from '../../../src/learn/checklist.ts';
import { DESIGN_CHANGES, WHY_SHARED_STORAGE } from '../../../src/learn/explainers.ts';
import { INTERVIEW_DECK } from '../../../src/learn/interview-deck.ts';
import {
  SCENARIO_IDS,
  scenarioHref,
  type ScenarioId,
  type SpecId,
  type TestCitation,
} from '../../../src/learn/learn-ids.ts';
import { MISCONCEPTIONS } from '../../../src/learn/misconceptions.ts';
import { plainText, segments } from '../../../src/learn/rich-text.ts';
import {
  declaredTests,
  digestIds,
  idsIn,
  ROOT,
  scenarioRules,
  testCitations,
  testsDeclaredIn,
} from '../helpers/spec-citations.ts';

/** Every item of the material: what it says, which scenarios and tests show it, which rules it rests on. */
const ITEMS: {
  where: string;
  texts: string[];
  scenarios: ScenarioId[];
  tests: readonly TestCitation[];
  specIds: readonly SpecId[];
}[] = [
  ...INTERVIEW_DECK.map((q) => ({
    where: `question ${q.id}`,
    texts: [q.question, q.answer],
    scenarios: [q.proveIt, ...q.alsoSee],
    tests: q.tests ?? [],
    specIds: q.specIds,
  })),
  ...MISCONCEPTIONS.map((m) => ({
    where: `myth ${m.id}`,
    texts: [m.myth, m.truth],
    scenarios: [m.experiment],
    tests: m.tests ?? [],
    specIds: m.specIds,
  })),
  ...DESIGN_CHANGES.map((c) => ({
    where: `change ${c.id}`,
    texts: [c.topic, c.before, c.now],
    scenarios: c.scenario ? [c.scenario] : [],
    tests: c.tests ?? [],
    specIds: c.specIds,
  })),
  ...PRODUCTION_CHECKLIST.map((c) => ({
    where: `checklist ${c.id}`,
    texts: [c.text],
    scenarios: c.scenario ? [c.scenario] : [],
    tests: c.tests ?? [],
    specIds: c.specIds,
  })),
  ...WHY_SHARED_STORAGE.map((p) => ({
    where: `storage ${p.id}`,
    texts: [p.text],
    scenarios: [p.scenario],
    tests: [],
    specIds: p.specIds,
  })),
];

/** Whether `source` declares a test (`it` or `test`, not a group) of exactly this name, as TypeScript parses it. */
function declaresTest(source: string, name: string): boolean {
  return declaredTests(source).some((test) => test.kind !== 'describe' && test.name === name);
}

/** Sentences in a text: ends of sentence followed by a capital, a digit, a code span or the end. */
function sentences(text: string): number {
  return [...text.matchAll(/[.?!](?=\s+[A-Z0-9`"(]|\s*$)/g)].length;
}

describe('learning material', () => {
  // Parses every test file with TypeScript once (cached per process): seconds on a loaded
  // machine, so in a hook with room for it rather than inside the first test's 20 s.
  beforeAll(() => void testCitations(digestIds()), 120_000);

  it('cites only rules the digest has, and every rule it cites is named by a test or declared by a scenario', () => {
    const ids = digestIds();
    const known = new Set(ids);
    const tested = testCitations(ids);
    const scenarioCited = new Set([...scenarioRules().values()].flat());
    const problems: string[] = [];
    for (const item of ITEMS) {
      expect(item.specIds.length, `${item.where} names no rule`).toBeGreaterThan(0);
      for (const id of item.specIds) {
        if (!known.has(id)) problems.push(`${item.where}: ${id} is not in the digest`);
        else if (tested.get(id)!.length === 0 && !scenarioCited.has(id))
          problems.push(`${item.where}: nothing proves ${id}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('links only to scenarios the registry has, each declaring at least one rule the item rests on', () => {
    for (const item of ITEMS)
      for (const s of item.scenarios) expect(SCENARIO_IDS, item.where).toContain(s);
    const rules = scenarioRules();
    const missing = SCENARIO_IDS.filter((id) => !rules.has(id));
    expect(missing, 'scenario ids the material cites but the registry lacks').toEqual([]);
    const unrelated = ITEMS.flatMap((item) =>
      item.scenarios
        .filter((s) => !item.specIds.some((id) => rules.get(s)!.includes(id)))
        .map((s) => `${item.where} -> ${s}`),
    );
    expect(unrelated, 'items whose scenario proves none of their rules').toEqual([]);
  });

  it('names only tests declared under that exact name, each naming a rule the item rests on; an item without a scenario names a test', () => {
    const problems: string[] = [];
    for (const item of ITEMS) {
      if (item.scenarios.length === 0 && item.tests.length === 0)
        problems.push(`${item.where}: no scenario and no test shows it`);
      for (const test of item.tests) {
        const path = join(ROOT, test.file);
        if (!test.file.startsWith('tests/') || !existsSync(path))
          problems.push(`${item.where}: no test file ${test.file}`);
        else if (
          !testsDeclaredIn(test.file).some((t) => t.kind !== 'describe' && t.name === test.name)
        )
          problems.push(`${item.where}: ${test.file} declares no test named "${test.name}"`);
        else if (!item.specIds.some((id) => idsIn(test.name).has(id)))
          problems.push(`${item.where}: "${test.name}" names none of ${item.specIds.join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every idea of the brief has a question, and every scenario is used somewhere', () => {
    expect(INTERVIEW_DECK.map((q) => q.id)).toEqual(
      expect.arrayContaining([
        'async-call-result',
        'statuses',
        'input-during-task',
        'handle-not-session',
        'operational-consequence',
        'what-changed',
      ]),
    );
    const used = new Set(ITEMS.flatMap((i) => i.scenarios));
    expect(SCENARIO_IDS.filter((id) => !used.has(id))).toEqual([]);
  });

  it('M1-M9 each have a myth', () => {
    for (const id of ['M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7', 'M8', 'M9'])
      expect(
        MISCONCEPTIONS.some((m) => m.specIds.includes(id as SpecId)),
        id,
      ).toBe(true);
  });

  it('model answers run 3-6 sentences, myth explanations 1-2; ids are unique', () => {
    for (const q of INTERVIEW_DECK) expect(sentences(q.answer), q.id).toBeGreaterThanOrEqual(3);
    for (const q of INTERVIEW_DECK) expect(sentences(q.answer), q.id).toBeLessThanOrEqual(6);
    for (const m of MISCONCEPTIONS) expect(sentences(m.truth), m.id).toBeLessThanOrEqual(2);
    for (const list of [
      INTERVIEW_DECK,
      MISCONCEPTIONS,
      DESIGN_CHANGES,
      WHY_SHARED_STORAGE,
      PRODUCTION_CHECKLIST,
    ]) {
      const ids = list.map((x) => x.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('every text pairs its backticks, so no code span runs on', () => {
    for (const item of ITEMS)
      for (const text of item.texts)
        expect(text.split('`').length % 2, `${item.where}: ${text}`).toBe(1);
  });
});

describe('rich text and links', () => {
  it('splits at backticks into text and code', () => {
    expect(segments('answers `-32601`, not `tasks/result`.')).toEqual([
      { code: false, text: 'answers ' },
      { code: true, text: '-32601' },
      { code: false, text: ', not ' },
      { code: true, text: 'tasks/result' },
      { code: false, text: '.' },
    ]);
    expect(segments('an unpaired ` stays text')).toEqual([
      { code: false, text: 'an unpaired ` stays text' },
    ]);
    expect(plainText('`taskId` alone')).toBe('taskId alone');
  });

  it('a cited test matches its whole name, whichever quotes declare it', () => {
    expect(declaresTest("it('T5: it\\'s here', () => {})", "T5: it's here")).toBe(true);
    expect(declaresTest('test("T5: it\'s here", () => {})', "T5: it's here")).toBe(true);
    expect(declaresTest("it('T5: elsewhere', () => {})", 'T5: else')).toBe(false);
  });

  it('a scenario opens at ?scenario=<id>', () => {
    expect(scenarioHref('happy-path')).toBe('?scenario=happy-path&play');
  });
});
