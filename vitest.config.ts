import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The svelte plugin compiles runes in `*.svelte.ts` state classes, so they are tested in Node too.
  plugins: [svelte()],
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // Two workers on two CPUs (the default leaves one idle): many files wait on I/O rather than compute.
    maxWorkers: 2,
    // Files share a worker's module cache instead of importing the SDK, zod and xstate afresh each time;
    // a file must leave no global behind (fake timers, stubs and spies are restored where they are set).
    isolate: false,
    setupFiles: ['tests/unit/helpers/between-files.ts'],
    // A test that asserts nothing fails: it could not have failed otherwise.
    expect: { requireAssertions: true },
  },
});
