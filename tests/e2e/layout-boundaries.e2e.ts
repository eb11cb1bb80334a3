/**
 * What a poll rewrites is laid out in its own box, never from the document:
 * the wire log's drawn rows take each flush's new messages (rows are reused
 * by position) and a card's facts change with every poll, and each of those
 * boxes is a relayout boundary, so Chromium lays out that box alone. A box is
 * one only if its size does not depend on its content (size and layout
 * contained) and it is neither a flex nor a grid item: the wire log's
 * contained scroller once was a flex item, and every pass started from the
 * document. Proven from the layout passes of a Chromium trace (each names
 * the boxes it started from), not from the CSS.
 */
import { expect, test, type Page } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard } from './playground.ts';

interface LayoutEvent {
  name: string;
  ph: string;
  args?: { endData?: { layoutRoots?: { nodeName?: string }[] } };
}

/** The boxes the page's layout passes started from while `work` ran, by Chromium's node names. */
async function layoutRoots(page: Page, work: () => Promise<void>): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const events: LayoutEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) =>
    events.push(...(value as unknown as LayoutEvent[])),
  );
  const complete = new Promise<void>((resolve) =>
    cdp.once('Tracing.tracingComplete', () => resolve()),
  );
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: ['devtools.timeline'], excludedCategories: ['*'] },
  });
  await work();
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  return events
    .filter((e) => e.name === 'Layout' && e.ph === 'X')
    .flatMap((e) => e.args?.endData?.layoutRoots ?? [])
    .map((root) => root.nodeName ?? '');
}

/**
 * In one task, so nothing else can dirty the page in between: lays the page
 * out, changes one thing, and lays it out again (reading offsetHeight), for
 * each box a poll rewrites: a drawn wire row's gist, the log's list (a row
 * more), a card's poll count.
 */
const REWRITE_ONE_AT_A_TIME = `(() => {
  const layOut = () => document.body.offsetHeight;
  const rows = document.querySelector('.wire .rows');
  // A row in view (rows out of view skip layout: content-visibility).
  const box = document.querySelector('.wire .scroller').getBoundingClientRect();
  const inView = [...rows.querySelectorAll('li')].filter((li) => {
    const r = li.getBoundingClientRect();
    return r.top >= Math.max(0, box.top) && r.bottom <= Math.min(innerHeight, box.bottom);
  });
  const gist = inView[Math.floor(inView.length / 2)].querySelector('.gist');
  const polls = document.querySelector('.task-card dd.one-line.mono');
  for (let i = 0; i < 3; i++) {
    layOut();
    gist.textContent += 'x';
    layOut();
    const row = rows.appendChild(document.createElement('li'));
    layOut();
    row.remove();
    layOut();
    polls.textContent += 'x';
    layOut();
  }
})()`;

for (const width of [1440, 390]) {
  test(`at ${width} px, what a poll rewrites is laid out in its wire row, the log or its card fact alone`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await openPlayground(page);
    await callTool(page, 'slow_compute', { seconds: '60', pollIntervalMs: '200' });
    await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('working');
    // On a phone the wire log is below the columns: in view, so its rows are drawn.
    await page.locator('.wire .scroller').scrollIntoViewIfNeeded();
    await expect(page.locator('.wire .rows .gist').last()).toBeInViewport();
    const roots = await layoutRoots(page, () => page.evaluate(REWRITE_ONE_AT_A_TIME));
    expect(roots.some((name) => name.includes('message-row summary'))).toBe(true);
    expect(roots.some((name) => name.includes('scroller'))).toBe(true);
    expect(roots.some((name) => name.includes('one-line'))).toBe(true);
  });
}
