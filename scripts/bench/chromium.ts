/** The one way the bench starts Chromium: Debian's binary, headless, quiet (Playwright's own download does not exist here). */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    ...(existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
    args: FLAGS,
  });
}
