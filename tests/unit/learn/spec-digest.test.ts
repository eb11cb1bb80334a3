/**
 * The digest the page shows (docs/tasks-2026-07-28.md, parsed by
 * src/learn/spec-digest.ts): every rule is found under its id, and every
 * rule id the app's texts mention is one the digest has, so no id on
 * screen links to nothing.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPEC_IDS } from '../../../src/learn/learn-ids.ts';
import { parseDigest, specIdsIn, textParts } from '../../../src/learn/spec-digest.ts';

const DIGEST = readFileSync('docs/tasks-2026-07-28.md', 'utf8');
const range = (prefix: string, last: number): string[] =>
  Array.from({ length: last }, (_, i) => `${prefix}${i + 1}`);

/** Every source file under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|svelte)$/.test(name) ? [path] : [];
  });
}

describe('the spec digest in the page', () => {
  const digest = parseDigest(DIGEST);

  it('C1-C10, T1-T22, M1-M9: finds every rule, in order, each with its text', () => {
    expect([...digest.rules.keys()]).toEqual([
      ...range('C', 10),
      ...range('T', 22),
      ...range('M', 9),
    ]);
    // The ids the page links are exactly the digest's.
    expect(SPEC_IDS).toEqual([...digest.rules.keys()]);
    for (const [id, rule] of digest.rules) {
      expect(rule.text.length, id).toBeGreaterThan(40);
      expect(rule.text.startsWith(id), id).toBe(false);
    }
    // A rule's continued lines are part of it: T1 ends with its note on "per-request opt-in".
    expect(digest.rules.get('T1')!.text).toMatch(/say both halves when teaching it\.\)$/);
  });

  it('keeps its headings and the groups of rules, and drops the comment', () => {
    const of = (kind: string) =>
      digest.blocks.filter((b) => b.kind === kind).map((b) => 'text' in b && b.text);
    expect(of('title')).toEqual([
      'MCP 2026-07-28 + Tasks extension: the rules this project implements',
    ]);
    expect(of('section')).toHaveLength(4);
    expect(of('group')).toEqual([
      'Negotiation',
      'Shapes',
      'Lifecycle',
      'Input during a task',
      'Cancellation',
      'Notifications',
      'Transport and security',
    ]);
    expect(JSON.stringify(digest.blocks)).not.toContain('<!--');
  });

  it('every rule id the texts of src/learn, src/scenarios, src/ui and src/machines mention is in the digest', () => {
    const unknown: string[] = [];
    for (const file of ['src/learn', 'src/scenarios', 'src/ui', 'src/machines'].flatMap(sources))
      for (const id of specIdsIn(readFileSync(file, 'utf8')))
        if (!digest.rules.has(id)) unknown.push(`${file}: ${id}`);
    expect(unknown).toEqual([]);
  });

  it('splits a text into plain text, code, emphasis and rule ids', () => {
    expect(textParts('a `tasks/get` (T10, M8) is *a later* one; T60 and `T6` are no ids')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'code', text: 'tasks/get' },
      { kind: 'text', text: ' (' },
      { kind: 'rule', id: 'T10' },
      { kind: 'text', text: ', ' },
      { kind: 'rule', id: 'M8' },
      { kind: 'text', text: ') is ' },
      { kind: 'emphasis', text: 'a later' },
      { kind: 'text', text: ' one; T60 and ' },
      { kind: 'code', text: 'T6' },
      { kind: 'text', text: ' are no ids' },
    ]);
    expect(textParts('an unpaired ` stays, T2 too')).toEqual([
      { kind: 'text', text: 'an unpaired ` stays, ' },
      { kind: 'rule', id: 'T2' },
      { kind: 'text', text: ' too' },
    ]);
    expect(specIdsIn('T2-T4, (M4), AT6, T6x, C10')).toEqual(['T2', 'T4', 'M4', 'C10']);
  });
});
