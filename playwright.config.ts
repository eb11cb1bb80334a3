/**
 * End-to-end tests in real Chromium against the production build
 * (`vite build` + `vite preview`), so the bundled worker is what is tested.
 * CI has no Playwright-downloaded browser: Debian's /usr/bin/chromium is used when present.
 */
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const CI = Boolean(process.env['CI']);
/**
 * Each checkout previews on a port of its own (derived from its path), so two
 * checkouts on one machine never reuse each other's server and test the other's
 * build; PLAYWRIGHT_PORT overrides it. CI keeps 4173.
 */
function portOfCheckout(dir: string): number {
  let hash = 0;
  for (const char of dir) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return 4200 + (hash % 700);
}
const PORT = Number(process.env['PLAYWRIGHT_PORT'] ?? (CI ? 4173 : portOfCheckout(process.cwd())));

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.e2e.ts',
  fullyParallel: false,
  workers: CI ? 1 : 2,
  retries: 0,
  reporter: 'list',
  forbidOnly: CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 720 },
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 720 },
        launchOptions: {
          ...(existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !CI,
    timeout: 60_000,
  },
});
