import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// What the first screen loads: every module `src/main.ts` reaches through static imports (the
// bundler puts exactly these in the page's initial chunk; a dynamic `import()` starts a lazy
// chunk). Read from the source, so a regression is caught by `npm run test:unit` without a
// build; the bundle-size bench measures the same chunk's bytes (issue 16: under 150 KB gzip).

const root = fileURLToPath(new URL('../../../', import.meta.url));
const ENTRY = 'src/main.ts';

interface Imports {
  /** Files and packages loaded before the module runs. */
  readonly eager: string[];
  /** Files and packages a dynamic `import()` asks for. */
  readonly lazy: string[];
}

/** A `.svelte` file's `<script>` blocks (the instance and the module one); a `.ts` file whole. */
function scriptOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (!file.endsWith('.svelte')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

/** A value import (not `import type`, not only `type` names): it survives into the bundle. */
function loadsAtRuntime(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return true; // `import './x'`: run for its effect
  if (clause.isTypeOnly) return false;
  if (clause.name) return true;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return true;
  return bindings.elements.length === 0 || bindings.elements.some((e) => !e.isTypeOnly);
}

function importsOf(file: string): Imports {
  const source = ts.createSourceFile(file, scriptOf(file), ts.ScriptTarget.Latest, true);
  const eager: string[] = [];
  const lazy: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && loadsAtRuntime(node))
      eager.push((node.moduleSpecifier as ts.StringLiteral).text);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly)
      eager.push((node.moduleSpecifier as ts.StringLiteral).text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      lazy.push(node.arguments[0].text);
    // `new Worker(new URL('./x.worker.ts', import.meta.url))`: its own file, loaded when started.
    else if (
      ts.isNewExpression(node) &&
      node.expression.getText(source) === 'URL' &&
      node.arguments?.[0] &&
      ts.isStringLiteral(node.arguments[0]) &&
      node.arguments[1]?.getText(source) === 'import.meta.url'
    )
      lazy.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  // A component's markup may load one too (`{#await import('./X.svelte')}`).
  if (file.endsWith('.svelte'))
    for (const m of readFileSync(file, 'utf8').matchAll(/\bimport\(\s*'([^']+)'\s*\)/g))
      lazy.push(m[1]!);
  return { eager, lazy };
}

/** `src/...` for a relative import (its file), `package:name` for a package. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) {
    const parts = specifier.split('/');
    return `package:${specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]}`;
  }
  const path = resolve(dirname(from), specifier.replace(/\?.*$/, ''));
  if (!/\.(ts|svelte)$/.test(path)) return undefined; // a stylesheet, a JSON file: no imports of its own
  return existsSync(path) ? relative(root, path) : undefined;
}

/** The modules the entry loads before it runs, and those only a dynamic import reaches. */
function firstLoad(entry: string): { eager: Set<string>; lazy: Set<string> } {
  const eager = new Set<string>();
  const lazyRoots = new Set<string>();
  const walk = (file: string, into: Set<string>, lazyFound?: Set<string>): void => {
    if (into.has(file)) return;
    into.add(file);
    if (file.startsWith('package:')) return;
    const { eager: now, lazy: later } = importsOf(join(root, file));
    for (const specifier of now) {
      const next = resolveSpecifier(join(root, file), specifier);
      if (next) walk(next, into, lazyFound);
    }
    for (const specifier of later) {
      const next = resolveSpecifier(join(root, file), specifier);
      if (next) lazyFound?.add(next);
    }
  };
  walk(entry, eager, lazyRoots);
  const lazy = new Set<string>();
  // A Set's iteration visits what is added during it: lazy chunks' own lazy imports too.
  for (const file of lazyRoots) walk(file, lazy, lazyRoots);
  for (const file of eager) lazy.delete(file);
  return { eager, lazy };
}

const { eager, lazy } = firstLoad(ENTRY);

/**
 * Loaded on demand, never with the first screen: each line names a module (or a folder, ending
 * in `/`) and where it loads. A line that fails here means a static import pulled it back in.
 */
const LAZY = [
  [
    'src/ui/state/replay-opener.svelte.ts',
    'the first run opened, or a drag or the Run menu (LazyReplayOpener)',
  ],
  ['src/replay/', 'the first run opened (ReplayOpener)'],
  ['src/ui/state/replay.svelte.ts', 'the first run opened'],
  ['src/ui/replay/ReplayBar.svelte', 'the first run opened (App)'],
  ['src/ui/replay/ReplayView.svelte', 'the first run opened (App)'],
  ['src/ui/state/run-sharing.ts', "the Run menu's first use (LazyRunSharing)"],
  ['src/record/har.ts', 'the first Export HAR (RunSharing)'],
  ['src/record/run-file.ts', 'the first Save run (RunSharing); the recorder stays eager'],
  ['src/record/run-events.ts', "the run file's schema, with run-file.ts"],
  ['src/check/', 'the first "Check this server"'],
  ['src/session/remote-endpoint.ts', "the learner's own server, when chosen"],
  ['src/ui/learn/LearnView.svelte', 'the first learning view'],
  ['src/ui/learn/WireExplainer.svelte', 'the first "What changed" (MessagesPanel)'],
  ['src/learn/explainers.ts', 'with the explainer and the learning views'],
  ['src/ui/components/TaskDetail.svelte', "the first task's detail (App)"],
  ['src/ui/components/Statechart.svelte', 'with the task detail'],
  ['src/ui/components/ScenarioPanel.svelte', 'the first scenario opened (App)'],
  ['src/ui/components/ClusterBody.svelte', 'the Cluster panel first unfolded'],
  ['src/ui/components/TaskCard.svelte', 'the first task listed, or the page idle (TaskList, main)'],
  ['src/ui/components/TaskFacts.svelte', 'with the task card'],
  ['src/ui/components/CallList.svelte', 'the first call, or the page idle (CallResults, main)'],
  ['src/ui/components/ToolResult.svelte', 'with the list of calls'],
  ['src/ui/components/InputForm.svelte', 'with the task card or the list of calls'],
  ['src/ui/components/ConnectForm.svelte', 'the Connect panel first opened (or hovered)'],
  ['src/ui/components/OwnServerPanel.svelte', "a remote server's page (ConnectPanel, main)"],
  ['src/ui/components/BreakpointsForm.svelte', 'the Breakpoints panel first opened (or hovered)'],
  ['src/ui/components/ScenarioControls.svelte', 'with the scenario panel'],
  ['src/ui/components/ScenarioDrill.svelte', 'with the scenario panel'],
  ['src/ui/components/ScenarioExpectations.svelte', 'with the scenario panel'],
  ['src/ui/components/SequenceDiagram.svelte', 'the first Sequence tab (MessagesPanel)'],
  ['package:elkjs', 'the first statechart laid out (its own worker)'],
] as const;

/** What must stay eager: it has to be there before anything happens. */
const EAGER = [
  ['src/record/run-recorder.ts', 'records every event from load'],
  ['src/ui/replay/ReplayOpen.svelte', 'drop-to-open listens from load'],
  ['src/ui/state/lazy-replay-opener.svelte.ts', 'a drop is queued, `?run=` read at load'],
  ['src/ui/state/lazy-run-sharing.ts', "the address's setup problems are shown at load"],
  ['src/ui/state/record-run.ts', 'the recorder starts with the page'],
  ['src/ui/components/TimeControls.svelte', 'Alt+P pauses at once'],
] as const;

describe('what the first screen loads (issue 16: initial JS under 150 KB gzip)', () => {
  it('the walk follows static imports into the page and stops at a dynamic import()', () => {
    // App imports Svelte components statically, and LearnView only through import().
    expect(eager).toContain('src/ui/App.svelte');
    expect(eager).toContain('package:svelte');
    expect(lazy).toContain('src/ui/learn/LearnView.svelte');
    // `import type` is no load: App names ServerCheck only as a type, the check loads on use.
    expect(eager).not.toContain('src/ui/state/server-check.svelte.ts');
  });

  it.each(LAZY)('%s stays out of the first load (loads at %s)', (module) => {
    const matches = (file: string): boolean =>
      module.endsWith('/') ? file.startsWith(module) : file === module;
    expect([...eager].filter(matches)).toEqual([]);
    // Still reachable on demand (so the line names a real module, not a typo).
    expect([...lazy].some(matches)).toBe(true);
  });

  it.each(EAGER)('%s loads with the page (%s)', (module) => {
    expect(eager).toContain(module);
  });
});
