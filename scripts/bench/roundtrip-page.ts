/**
 * The worker-roundtrip bench page made ready on its own path (`memory-net`:
 * the session's client, a clean FaultyNetwork, the batched worker port, the
 * journal on a memory store) with `tasks` tasks, and a CDP session on it:
 * the start the page-path benches share.
 */
import type { Browser, CDPSession, Page } from '@playwright/test';

export interface RoundtripPage {
  page: Page;
  cdp: CDPSession;
}

/** Opens `worker-roundtrip.html` from `baseUrl` in a new tab of `browser`, prepared with `tasks` tasks. */
export async function openRoundtripPage(
  browser: Browser,
  baseUrl: string,
  tasks = 500,
): Promise<RoundtripPage> {
  const page = await browser.newPage();
  await page.goto(`${baseUrl}/worker-roundtrip.html`);
  await page.waitForFunction(() => 'bench' in window);
  await page.evaluate((n) => window.bench.prepare('memory-net', n), tasks);
  const cdp = await page.context().newCDPSession(page);
  return { page, cdp };
}
