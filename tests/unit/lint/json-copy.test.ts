/**
 * Every exact-JSON view has a Copy button (issue 15): a component that
 * shows JSON as text (a `<pre>` in a component that formats JSON with
 * `prettyJson`, or `{JSON.stringify(...)}` in its markup) puts a
 * `CopyButton` beside it; the others show JSON through `JsonView` (Copy
 * included). Read from the source, so a new `<pre>{prettyJson(x)}</pre>`
 * without Copy fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function svelteFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return svelteFiles(path);
    return entry.name.endsWith('.svelte') ? [path] : [];
  });
}

/** The markup of a component: without its `<script>` and `<style>` blocks. */
const markupOf = (text: string): string =>
  text.replace(/<script\b[\s\S]*?<\/script>/g, '').replace(/<style\b[\s\S]*?<\/style>/g, '');

/** Whether a component shows JSON as text: formatted with `prettyJson` into a `<pre>`, or stringified in its markup (not in an attribute). */
function showsJson(text: string): boolean {
  const markup = markupOf(text);
  return (
    (/\bprettyJson\b/.test(text) && /<pre\b/.test(markup)) ||
    /(^|[^=])\{\s*JSON\.stringify\(/m.test(markup)
  );
}

describe('exact-JSON views', () => {
  it('each component that shows JSON as text has a Copy button for it', () => {
    const shown = svelteFiles(join(root, 'src/ui')).filter((file) =>
      showsJson(readFileSync(file, 'utf8')),
    );
    const withoutCopy = shown
      .filter((file) => !/<CopyButton\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(shown.map((file) => relative(root, file))).toContain(
      'src/ui/components/JsonView.svelte',
    );
    expect(withoutCopy).toEqual([]);
  });
});
