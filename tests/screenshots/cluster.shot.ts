/**
 * The page's cluster view at 1440, 1024 and 390 px, light and dark: three
 * nodes on a shared store behind round-robin, one task polled across them,
 * the node column in the wire log, the header's Kill all nodes; then the
 * panel alone on per-node memory (the broken verdict and its fix button)
 * with node 1's Early handle toggle on (into screenshots/widths/).
 */
import { expect, test } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard } from '../e2e/playground.ts';

for (const width of [1440, 1024, 390] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`cluster view at ${width} px (${scheme})`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openPlayground(page);
      const panel = page.getByRole('region', { name: 'Cluster' });
      await panel.getByRole('button', { name: 'Cluster' }).click();
      await panel.getByLabel('Store', { exact: true }).selectOption('indexeddb');
      await panel.getByLabel('Nodes', { exact: true }).selectOption('3');
      await expect(panel.getByTestId('cluster-node-3')).toContainText('up');
      await callTool(page, 'slow_compute', { seconds: '3' });
      await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('completed', {
        timeout: 20_000,
      });
      await panel.getByRole('button', { name: 'Cut node 2 off from the balancer' }).click();
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `screenshots/widths/${width}-${scheme}-5-cluster.png` });

      await panel.getByLabel('Store', { exact: true }).selectOption('memory');
      await panel.getByRole('button', { name: 'Node 1 answers before storing (breaks T8)' }).click();
      await expect(panel.getByTestId('cluster-early-handle')).toContainText('Broken on purpose');
      await expect(panel.getByRole('button', { name: 'Use one shared store' })).toBeVisible();
      await panel.screenshot({ path: `screenshots/widths/${width}-${scheme}-6-cluster-panel.png` });
    });
  }
}
