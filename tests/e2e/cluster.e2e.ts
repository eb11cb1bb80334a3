/**
 * The page's cluster in Chromium: three server nodes, each its own Web
 * Worker, behind the page's load balancer, set up with the Cluster panel
 * as a learner would (T19). Per-node memory behind round-robin loses the
 * task to another node's -32602; a shared IndexedDB store has its polls
 * served by several nodes and completes; killing the node that runs a job
 * has another node carry it on, and the card says so (T12).
 */
import { expect, test, type Page } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard, wireRows } from './playground.ts';

test.describe.configure({ timeout: 60_000 });

async function useCluster(page: Page, store: 'indexeddb' | 'memory'): Promise<void> {
  const panel = page.getByRole('region', { name: 'Cluster' });
  await panel.getByRole('button', { name: 'Cluster' }).click();
  await panel.getByLabel('Store', { exact: true }).selectOption(store);
  await panel.getByLabel('Nodes', { exact: true }).selectOption('3');
  await panel.getByLabel('Balancer policy', { exact: true }).selectOption('round-robin');
  await expect(panel.getByTestId('cluster-summary')).toHaveText('3 nodes · Round-robin');
  for (const node of [1, 2, 3])
    await expect(panel.getByTestId(`cluster-node-${node}`).getByTestId('node-state')).toContainText(
      'up',
    );
  await expect(page.getByRole('status').filter({ hasText: 'Connected as learner' })).toBeVisible();
}

/** The node column of the drawn wire rows matching `method` and `gist`. */
async function nodesOf(page: Page, method: string, gist: RegExp): Promise<string[]> {
  return wireRows(page).evaluateAll(
    (rows, [m, g]) =>
      rows
        .filter(
          (row) =>
            row.querySelector('.method')?.textContent?.trim() === m &&
            new RegExp(g!).test(row.querySelector('.gist')?.textContent ?? '') &&
            row.querySelector('.dir [aria-hidden]')?.textContent === '←',
        )
        .map((row) =>
          (row.querySelector('[data-testid="wire-node"]')?.textContent ?? '').replace(/\D/g, ''),
        ),
    [method, gist.source],
  );
}

test('T19: per-node memory behind round-robin: another node answers -32602 for the task', async ({
  page,
}) => {
  await openPlayground(page);
  await useCluster(page, 'memory');
  await callTool(page, 'slow_compute', { seconds: '4' });
  // The client gave up on -32602; the badge keeps what it last heard (gone is not a status).
  await expect(taskCard(page, 'slow_compute')).toContainText('gave up: server answered -32602', {
    timeout: 15_000,
  });
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText(/^last heard: /);
  await expect.poll(() => nodesOf(page, 'tasks/get', /-32602/)).not.toEqual([]);
  const [created] = await nodesOf(page, 'tools/call', /^task/);
  const lost = await nodesOf(page, 'tasks/get', /-32602/);
  expect(created).toMatch(/^[123]$/);
  expect(lost[0]).toMatch(/^[123]$/);
  expect(lost[0]).not.toBe(created);
  // The page knows why: another node, with per-node memory (T19), and says so.
  await expect(taskCard(page, 'slow_compute').getByTestId('gone-cause')).toContainText(
    `Cause: another node answered. Node ${created} reported it`,
  );
  await expect(taskCard(page, 'slow_compute').getByTestId('gone-cause')).toContainText(
    `to node ${lost[0]}, which never had it`,
  );
});

test('T19: a shared store: the task completes, its polls served by at least two nodes', async ({
  page,
}) => {
  await openPlayground(page);
  await useCluster(page, 'indexeddb');
  await callTool(page, 'slow_compute', { seconds: '3' });
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('completed', {
    timeout: 20_000,
  });
  await expect
    .poll(async () => new Set(await nodesOf(page, 'tasks/get', /working|completed/)).size)
    .toBeGreaterThanOrEqual(2);
  expect(await nodesOf(page, 'tasks/get', /-32602/)).toEqual([]);
});

test('T12: the node running a job is killed; another takes it over and the card says so', async ({
  page,
}) => {
  await openPlayground(page);
  await useCluster(page, 'indexeddb');
  await callTool(page, 'slow_compute', { seconds: '8' });
  const card = taskCard(page, 'slow_compute');
  await expect(card).toContainText(/computing: [1-5] of 8 s/, { timeout: 15_000 });
  const [created] = await nodesOf(page, 'tools/call', /^task/);
  const node = created!;
  expect(node).toMatch(/^[123]$/);
  await page.getByRole('button', { name: `Kill node ${node}` }).click();
  await expect(page.getByTestId(`cluster-node-${node}`).getByTestId('node-state')).toContainText(
    'killed',
  );
  const note = card.getByTestId('takeover-note');
  await expect(note).toContainText(
    new RegExp(
      `node [123] carried the job on from checkpoint \\d of 8 s computed after node ${node} died`,
    ),
    { timeout: 20_000 },
  );
  await expect(note).not.toContainText(`node ${node} carried`);
  await expect(serverStatus(card)).toHaveText('completed', { timeout: 20_000 });
});

test('T8: the Early handle toggle: with every node answering before its write, the first poll answers -32602; switched off, the same call completes', async ({
  page,
}) => {
  await openPlayground(page);
  await useCluster(page, 'indexeddb');
  const panel = page.getByRole('region', { name: 'Cluster' });
  const note = panel.getByTestId('cluster-early-handle');
  await expect(note).toContainText('the bug T8 rules out');
  for (const node of [1, 2, 3]) {
    const toggle = panel.getByRole('button', { name: `Node ${node} answers before storing` });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  }
  await expect(note).toContainText('nodes 1, 2 and 3 return a');
  await expect(note.getByRole('link', { name: 'T8' })).toBeVisible();
  for (const node of [1, 2, 3])
    await expect(panel.getByTestId(`cluster-node-${node}`).getByTestId('node-state')).toContainText(
      'up',
    );
  await callTool(page, 'slow_compute', { seconds: '2' });
  // The client gave up on -32602; the badge keeps what it last heard (gone is not a status).
  await expect(taskCard(page, 'slow_compute')).toContainText('gave up: server answered -32602', {
    timeout: 15_000,
  });
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText(/^last heard: /);
  // Polled: the wire log draws its rows a frame or more after the card heard the answer.
  await expect.poll(() => nodesOf(page, 'tasks/get', /-32602/)).not.toEqual([]);

  for (const node of [1, 2, 3])
    await panel.getByRole('button', { name: `Node ${node} answers before storing` }).click();
  await expect(note).toContainText('the bug T8 rules out');
  await page.getByRole('button', { name: 'Clear finished tasks' }).click();
  await callTool(page, 'slow_compute', { seconds: '2' });
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('completed', {
    timeout: 20_000,
  });
});

test('T19: several nodes: the header says its Kill hits all of them, and the broken verdict offers the shared store', async ({
  page,
}) => {
  await openPlayground(page);
  const header = page.getByRole('banner');
  await expect(header.getByRole('button', { name: 'Kill server' })).toBeVisible();
  await useCluster(page, 'memory');
  const kill = header.getByRole('button', { name: 'Kill all nodes' });
  await expect(kill).toHaveAttribute('title', /every one of the 3 cluster nodes/);
  await expect(kill).toHaveAttribute('title', /beside it in the Cluster panel/);
  await expect(header.getByRole('button', { name: 'Restart all nodes' })).toBeVisible();

  const panel = page.getByRole('region', { name: 'Cluster' });
  const verdict = panel.getByTestId('cluster-verdict');
  await expect(verdict).toContainText('the store the single server starts with');
  await verdict.getByRole('button', { name: 'Use one shared store' }).click();
  await expect(panel.getByLabel('Store', { exact: true })).toHaveValue('indexeddb');
  await expect(verdict).toContainText('Correct with any policy');
  await expect(verdict.getByRole('button')).toHaveCount(0);
});
