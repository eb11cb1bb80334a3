// ESLint flat config: what a TypeScript + Svelte newcomer expects to find.
// Syntax-only rules (no type-aware linting) keep `npm run lint` quick; `npm run check`
// is where the type checker runs.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import boundaries from 'eslint-plugin-boundaries';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

/**
 * Imports flow one way (STYLE.md). For each folder under src/: the other src/ folders and the
 * packages (by name; `node:*` is every Node builtin) it may import. Anything not listed is an
 * error; files inside one folder import each other freely.
 */
const ARCHITECTURE = {
  protocol: { folders: [], packages: ['zod', '@modelcontextprotocol/core'] },
  // The world clock: plain timers that can pause, for the page and the server worker alike.
  clock: { folders: [], packages: ['tinyqueue'] },
  machines: { folders: ['protocol'], packages: ['xstate'] },
  server: {
    folders: ['protocol', 'machines', 'clock'],
    packages: [
      '@modelcontextprotocol/server',
      '@modelcontextprotocol/core',
      'zod',
      'idb',
      'xstate',
    ],
  },
  net: { folders: ['protocol', 'clock'], packages: ['zod', '@modelcontextprotocol/client'] },
  store: { folders: ['protocol'], packages: ['idb'] },
  client: {
    folders: ['protocol', 'net', 'machines', 'store', 'clock'],
    packages: ['xstate', 'zod'],
  },
  session: {
    folders: ['protocol', 'net', 'client', 'machines', 'store', 'clock'],
    packages: ['xstate', 'zod'],
  },
  // zod: a run saved in sessionStorage is validated when a reload reads it back.
  scenarios: {
    folders: ['protocol', 'client', 'machines', 'net', 'session', 'clock'],
    packages: ['xstate', 'zod'],
  },
  learn: { folders: [], packages: [] },
  // The run file (zod schema), its recorder over the page session, exports and the shared setup.
  record: {
    folders: ['protocol', 'net', 'client', 'machines', 'session'],
    packages: ['zod'],
  },
  // The server checks: raw `fetch` against any server, so they run alike in the page and in Node.
  check: { folders: ['protocol'], packages: ['zod'] },
  // The client grader: its scoring is pure (protocol, zod); its tools run on the server's
  // pieces; its Node files (node-*.ts, below) serve them over HTTP.
  grade: { folders: ['protocol', 'server'], packages: ['zod'] },
  // The replay of a run file: read from the recording (src/record's format), never re-run.
  replay: { folders: ['protocol', 'net', 'client', 'session', 'record'], packages: [] },
  ui: {
    folders: [
      'protocol',
      'net',
      'machines',
      'store',
      'client',
      'session',
      'scenarios',
      'learn',
      'record',
      'check',
      'replay',
      'clock',
    ],
    packages: ['svelte', '@xstate/svelte', 'xstate', 'elkjs', 'zod'],
  },
};
/**
 * The server's files that run in Node only (the Node host, the PostgreSQL store): they alone
 * may also import `pg` and Node builtins. The rest of src/server runs in the worker too
 * (tsconfig.worker.json, which leaves out these same files).
 */
const NODE_ONLY_SERVER = { files: ['node-*.ts', 'pg/**'], packages: ['pg', 'node:*'] };
/** The grader's files that run in Node only: they alone may import Node builtins. */
const NODE_ONLY_GRADE = { files: ['node-*.ts'], packages: ['node:*'] };
const PAGE_FOLDERS = Object.keys(ARCHITECTURE).filter(
  (folder) => folder !== 'server' && folder !== 'grade',
);

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
  {
    files: ['src/**'],
    plugins: { boundaries },
    settings: {
      'boundaries/root-path': import.meta.dirname,
      'boundaries/elements': [
        ...Object.keys(ARCHITECTURE).map((folder) => ({
          type: folder,
          pattern: `src/${folder}`,
          partialMatch: false,
        })),
        // Last, so it takes only what no folder above took: the files at the top of src/
        // (main.ts), which wire the page together, and any new folder not yet listed, whose
        // imports of other folders and packages then fail until it is added above.
        { type: 'entry', pattern: 'src', partialMatch: false },
      ],
      // The page starts the server worker by URL, not by import:
      // `new Worker(new URL('../server/worker.ts', import.meta.url))`. Counting every
      // `new URL('<literal>', ...)` as a dependency lets the rule allow that one form.
      'boundaries/additional-dependency-nodes': [
        { selector: 'NewExpression[callee.name="URL"] > Literal', kind: 'value', name: 'url' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          // Packages and Node builtins are checked too, and so are local files outside
          // any folder above.
          checkAllOrigins: true,
          checkUnknownLocals: true,
          policies: [
            ...Object.entries(ARCHITECTURE).map(([folder, { folders, packages }]) => ({
              from: { element: { type: folder } },
              allow: [
                { to: { element: { type: folders } } },
                { to: { module: { origin: ['external', 'core'], source: packages } } },
              ],
            })),
            {
              from: { element: { type: 'server', fileInternalPath: NODE_ONLY_SERVER.files } },
              allow: {
                to: { module: { origin: ['external', 'core'], source: NODE_ONLY_SERVER.packages } },
              },
            },
            {
              from: { element: { type: 'grade', fileInternalPath: NODE_ONLY_GRADE.files } },
              allow: {
                to: { module: { origin: ['external', 'core'], source: NODE_ONLY_GRADE.packages } },
              },
            },
            {
              from: { element: { type: 'entry', fileInternalPath: '*.ts' } },
              allow: [
                { to: { element: { type: PAGE_FOLDERS } } },
                { to: { module: { origin: 'external' } } },
              ],
            },
            {
              from: { element: { type: 'net', fileInternalPath: 'server-worker.ts' } },
              allow: {
                to: { element: { type: 'server', fileInternalPath: 'worker.ts' } },
                dependency: { nodeKind: 'url' },
              },
            },
          ],
        },
      ],
    },
  },
  // Last: turns off every stylistic rule that Prettier already decides.
  prettier,
  svelte.configs.prettier,
);
