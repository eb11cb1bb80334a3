/**
 * Keeps imports flowing one way (STYLE.md): ui -> scenarios, client, machines, store,
 * net -> protocol; server -> protocol. Prints each wrong-way import and
 * exits non-zero if there is one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

/** For each src/ folder, the src/ folders it may import from. */
export const ALLOWED: Record<string, readonly string[]> = {
  protocol: [],
  server: ['protocol'],
  net: ['protocol'],
  machines: ['protocol'],
  store: ['protocol'],
  client: ['protocol', 'net', 'machines', 'store'],
  learn: [],
  ui: ['protocol', 'net', 'machines', 'store', 'client', 'learn', 'scenarios', 'session'],
  session: ['protocol', 'net', 'client', 'machines', 'store'],
  scenarios: ['protocol', 'client', 'machines', 'net'],
};

const SRC = resolve(import.meta.dirname, '..', 'src');
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(ts|svelte)$/.test(name) ? [path] : [];
  });
}

/** Wrong-way imports in the tree under src/, as "file: imports target". */
export function wrongWayImports(root = SRC): string[] {
  const problems: string[] = [];
  for (const file of files(root)) {
    const parts = relative(root, file).split(/[\\/]/);
    if (parts.length === 1) continue; // Entry files at the top of src/ (main.ts) wire everything together.
    const from = parts[0] ?? '';
    const allowed = ALLOWED[from];
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? '';
      if (!spec.startsWith('.')) continue;
      const target = relative(root, resolve(dirname(file), spec)).split(/[\\/]/)[0] ?? '';
      if (target === from || target.startsWith('..') || target.includes('.')) continue;
      if (!allowed || !allowed.includes(target))
        problems.push(
          `${relative(root, file)}: imports ${spec} (${from} may not import ${target})`,
        );
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = wrongWayImports();
  for (const p of problems) console.error(p);
  console.log(
    problems.length === 0
      ? 'imports: all flow one way'
      : `imports: ${problems.length} wrong-way import(s)`,
  );
  process.exit(problems.length === 0 ? 0 : 1);
}
