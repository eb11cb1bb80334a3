import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('../../../src/machines/', import.meta.url));

describe('src/machines imports', () => {
  it('imports only xstate and src/protocol (STYLE: machines are pure)', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const source = readFileSync(dir + file, 'utf8');
      const specifiers = [
        ...source.matchAll(/(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/g),
      ].map((m) => m[1]);
      for (const specifier of specifiers) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(
          /^(xstate$|\.\.\/protocol\/|\.\/)/,
        );
      }
    }
  });
});
