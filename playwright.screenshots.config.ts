/** `npm run screenshots`: the e2e setup, pointed at tests/screenshots. */
import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

export default defineConfig({
  ...base,
  testDir: 'tests/screenshots',
  testMatch: '**/*.shot.ts',
  workers: 1,
});
