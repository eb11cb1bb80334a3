/**
 * Text a reader matches by eye reads whole at the page's three design widths
 * (1440, 1024 and 390 px): the wire log's request ids once they pass 1000
 * (an id cut to "#12…" cannot be paired with its answer), its taskIds beside
 * the method and the gist at 1440 and 1024 px, a task card's
 * facts (the client's state, polls, interval, TTL), and on a phone with a
 * cluster each wire row's node and gist.
 */
import { expect, test, type Page } from '@playwright/test';
import {
  callTool,
  mashCall,
  openPlayground,
  readWire,
  serverStatus,
  taskCard,
} from './playground.ts';

const WIDTHS = [1440, 1024, 390] as const;

/** The drawn rows' ids the id cell cuts (its text wider than the cell). */
const cutIds = (page: Page): Promise<string[]> =>
  page
    .getByRole('list', { name: 'Wire log messages' })
    .locator('.summary > .id')
    .evaluateAll((cells) =>
      cells.filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.textContent),
    );

test('layout: request ids past 1000 read whole in the wire log at 1440, 1024 and 390 px', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  // Twenty tasks polled every 100 ms bring the ids past 1000 within seconds.
  await callTool(page, 'slow_compute', { seconds: '120', pollIntervalMs: '100' });
  await mashCall(page, 19);
  await readWire(
    page,
    (rows) => rows.some((row) => Number(row.id.replace(/^#/, '')) >= 1000),
    'a request id past 1000',
    { timeout: 90_000 },
  );
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole('list', { name: 'Wire log messages' }).scrollIntoViewIfNeeded();
    await expect.poll(() => cutIds(page), { message: `ids cut at ${width} px` }).toEqual([]);
  }
});

/** The drawn rows' method, taskId and gist cells that cut their text (wider than the cell). */
const cutCells = (page: Page): Promise<string[]> =>
  page
    .getByRole('list', { name: 'Wire log messages' })
    .locator('.summary > .method, .summary > .task, .summary .gist')
    .evaluateAll((cells) =>
      cells.filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.textContent),
    );

test("layout: at 1440 and 1024 px a wire row's taskId reads whole, beside its method and gist", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '1' });
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('completed');
  await readWire(
    page,
    (rows) => rows.some((row) => row.taskId !== '' && row.gist === 'completed'),
    'a poll answered completed',
  );
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole('list', { name: 'Wire log messages' }).scrollIntoViewIfNeeded();
    await expect.poll(() => cutCells(page), { message: `cells cut at ${width} px` }).toEqual([]);
  }
});

/** The facts of `tool`'s card whose term or value its cell cuts. */
const cutFacts = (page: Page, tool: string): Promise<string[]> =>
  taskCard(page, tool)
    .locator('.fact > *')
    .evaluateAll((parts) =>
      parts.filter((part) => part.scrollWidth > part.clientWidth).map((part) => part.textContent),
    );

test("layout: a task card's facts read whole at 1440, 1024 and 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  await callTool(page, 'slow_compute', { seconds: '120' });
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('working');
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expect
      .poll(() => cutFacts(page, 'slow_compute'), { message: `facts cut at ${width} px` })
      .toEqual([]);
  }
});

test('layout: on a 390 px phone with a cluster, each wire row keeps its node and its gist in its one line', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await openPlayground(page);
  const panel = page.getByRole('region', { name: 'Cluster' });
  await panel.getByRole('button', { name: 'Cluster' }).click();
  await panel.getByLabel('Nodes', { exact: true }).selectOption('3');
  await expect(panel.getByTestId('cluster-node-3')).toContainText('up');
  await callTool(page, 'slow_compute', { seconds: '2' });
  await readWire(page, (rows) => rows.some((row) => row.method === 'tasks/get'));
  const list = page.getByRole('list', { name: 'Wire log messages' });
  await list.scrollIntoViewIfNeeded();
  // A cell a track short wraps to a second grid row, which the one-line row clips away.
  const outside = await list.locator('.summary').evaluateAll((rows) =>
    rows.flatMap((row) => {
      const box = row.getBoundingClientRect();
      return [...row.querySelectorAll(':scope > .node, :scope > .gist-cell')]
        .filter((cell) => cell.getBoundingClientRect().bottom > box.bottom)
        .map((cell) => cell.className);
    }),
  );
  expect(outside).toEqual([]);
});
