import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

/**
 * Tests of what a component's template may do: Svelte's client runtime, in a DOM (happy-dom).
 * Every other unit test runs in Node (the `node` project). Each project's files are its own:
 * `include` is set per project, since a project that extends this config adds to its lists.
 */
const IN_A_DOM = 'tests/unit/**/*.svelte.test.ts';

export default defineConfig({
  // The svelte plugin compiles runes in `*.svelte.ts` state classes, so they are tested in Node too.
  plugins: [svelte()],
  test: {
    testTimeout: 20_000,
    // Two workers on two CPUs (the default leaves one idle): many files wait on I/O rather than compute.
    maxWorkers: 2,
    // Files share a worker's module cache instead of importing the SDK, zod and xstate afresh each time;
    // a file must leave no global behind (fake timers, stubs and spies are restored where they are set).
    isolate: false,
    setupFiles: ['tests/unit/helpers/between-files.ts'],
    // A test that asserts nothing fails: it could not have failed otherwise.
    expect: { requireAssertions: true },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['tests/unit/**/*.test.ts'],
          exclude: [IN_A_DOM],
          environment: 'node',
        },
      },
      {
        extends: true,
        // In Node, `svelte` resolves to its server runtime, where no template is reactive and
        // `mount` does not exist: the browser entry is the page's own runtime.
        resolve: { conditions: ['browser'] },
        test: { name: 'dom', include: [IN_A_DOM], environment: 'happy-dom' },
      },
    ],
  },
});
