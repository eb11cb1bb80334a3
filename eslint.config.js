// ESLint flat config: what a TypeScript + Svelte newcomer expects to find.
// Syntax-only rules (no type-aware linting) keep `npm run lint` quick; `npm run check`
// is where the type checker runs.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

export default defineConfig(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'dist-bench/',
      'test-results/',
      'playwright-report/',
      'bench-results/',
      'screenshots/',
    ],
  },
  js.configs.recommended,
  ts.configs.recommended,
  svelte.configs.recommended,
  {
    // `no-undef` checks only these two kinds of file (typescript-eslint leaves `.ts` files'
    // globals to the type checker, one tsconfig per runtime): components run in the page,
    // the `.js` config files in Node.
    files: ['**/*.svelte'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // `<script lang="ts">` in components, and runes in `*.svelte.ts` state classes.
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: {
        parser: ts.parser,
        extraFileExtensions: ['.svelte'],
        svelteConfig,
      },
    },
  },
  {
    // In a `.svelte.ts` file this rule reports every Map, Set or URL built inside an exported
    // declaration, mutated or not (it cannot see which ones a template reads). The rune classes
    // there are exported by design, declare what the page shows with `$state`, and keep plain
    // Maps for bookkeeping no template reads and URLs made only to read or write `location`.
    // In components (`.svelte`) the rule stays on: there it checks real mutation.
    files: ['**/*.svelte.ts'],
    rules: { 'svelte/prefer-svelte-reactivity': 'off' },
  },
  {
    files: ['**/*.ts'],
    rules: {
      // A client's callbacks name the follower that is built after the client (it needs the
      // client): `let x; const client = new C({ cb: () => x?.f() }); x = new F(client)`.
      // Those reads come before the one assignment, so `const` is not possible.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    rules: {
      // `const { lease: _dropped, ...rest } = record` is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  // Last: turns off every stylistic rule that Prettier already decides.
  prettier,
  svelte.configs.prettier,
);
