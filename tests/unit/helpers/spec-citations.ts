/**
 * Where the digest's rule ids (docs/tasks-2026-07-28.md) are proven: by the
 * names of tests (the title strings of `it`, `test` and `describe` calls,
 * found by parsing each test file with TypeScript's compiler, so a comment
 * or a string elsewhere in the file cites nothing) and by the scenario
 * registry (each scenario's declared `specIds`). Shared by the coverage
 * test and the learning-material test.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { scenarios } from '../../../src/scenarios/index.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..', '..');
export const DIGEST = join(ROOT, 'docs', 'tasks-2026-07-28.md');

/**
 * Test files whose names mention rule ids without proving them: they test
 * the citations themselves (how ids are read, that the material cites them).
 */
export const NOT_PROOFS: readonly string[] = [
  'tests/unit/spec-coverage.test.ts',
  'tests/unit/learn/learn-content.test.ts',
];

/** The rule ids the digest defines, in its order: each rule is a list item starting with its id. */
export function digestIds(markdown = readFileSync(DIGEST, 'utf8')): string[] {
  return [...markdown.matchAll(/^- ([CTM]\d+) /gm)].map((m) => m[1]!);
}

/** Ids mentioned in a test name: `T6`, `(M4)`, `T2-T4` count; `T60`, `AT6`, `T6x` do not. */
export function idsIn(name: string): Set<string> {
  return new Set(
    [...name.matchAll(/(?<![A-Za-z0-9_])([CTM]\d{1,2})(?![A-Za-z0-9_])/g)].map((m) => m[1]!),
  );
}

/** One test or group declared in a file: how (`it`, `test`, `describe`), its name, and its line. */
export interface DeclaredTest {
  kind: 'it' | 'test' | 'describe';
  name: string;
  line: number;
}

const DECLARERS = new Set(['it', 'test', 'describe']);

/** The identifier a callee starts from: `it` for `it`, `it.only`, `it.each(rows)`, `test.describe`. */
function calleeRoot(callee: ts.Expression): { root: string; path: string[] } | undefined {
  const path: string[] = [];
  let node = callee;
  for (;;) {
    if (ts.isIdentifier(node)) return { root: node.text, path };
    if (ts.isPropertyAccessExpression(node)) {
      path.unshift(node.name.text);
      node = node.expression;
    } else if (ts.isCallExpression(node)) node = node.expression;
    else return undefined;
  }
}

/** The text of a name written as a literal, a template (placeholders kept as `${}`) or literals joined by `+`. */
function staticText(node: ts.Expression): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return node.head.text + node.templateSpans.map((span) => '${}' + span.literal.text).join('');
  if (ts.isParenthesizedExpression(node)) return staticText(node.expression);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = staticText(node.left);
    const right = staticText(node.right);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  return undefined;
}

/** Every `it(...)`, `test(...)` and `describe(...)` (with modifiers such as `.only` or `.each(rows)`) in `source`, by its name. */
export function declaredTests(source: string, fileName = 'test.ts'): DeclaredTest[] {
  // JSDoc is never a test's name: skipping it makes parsing every test file markedly cheaper.
  const file = ts.createSourceFile(
    fileName,
    source,
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    false,
    ts.ScriptKind.TS,
  );
  const found: DeclaredTest[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const callee = calleeRoot(node.expression);
      const name = staticText(node.arguments[0]!);
      if (callee && DECLARERS.has(callee.root) && name !== undefined) {
        const kind = callee.path.includes('describe')
          ? 'describe'
          : (callee.root as DeclaredTest['kind']);
        found.push({
          kind,
          name,
          line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Each test file's declared tests, parsed once per process (the coverage and material checks share them). */
const parsed = new Map<string, DeclaredTest[]>();

/** The tests declared in a file of the repository (path relative to it). */
export function testsDeclaredIn(path: string): DeclaredTest[] {
  let tests = parsed.get(path);
  if (!tests) {
    tests = declaredTests(readFileSync(join(ROOT, path), 'utf8'), path);
    parsed.set(path, tests);
  }
  return tests;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Each digest id -> the tests that name it, as `file: name` (file relative
 * to the repository). Only names count; files in `exclude` are skipped.
 */
export function testCitations(
  ids: readonly string[],
  exclude: readonly string[] = NOT_PROOFS,
): Map<string, string[]> {
  const known = new Set(ids);
  const byId = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const file of tsFiles(join(ROOT, 'tests'))) {
    const path = relative(ROOT, file);
    if (exclude.includes(path)) continue;
    for (const test of testsDeclaredIn(path))
      for (const id of idsIn(test.name))
        if (known.has(id)) byId.get(id)!.push(`${path}: ${test.name}`);
  }
  return byId;
}

/** The rules each registered scenario declares it demonstrates (its `specIds`), by scenario id. */
export function scenarioRules(): Map<string, readonly string[]> {
  return new Map(scenarios.map((s) => [s.id, s.specIds]));
}
