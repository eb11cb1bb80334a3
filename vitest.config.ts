import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The svelte plugin compiles runes in `*.svelte.ts` state classes, so they are tested in Node too.
  plugins: [svelte()],
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // A test that asserts nothing fails: it could not have failed otherwise.
    expect: { requireAssertions: true },
  },
});
