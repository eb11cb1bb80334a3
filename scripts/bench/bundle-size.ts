/**
 * The production bundle, gzip-compressed as a server would send it, against
 * a budget stated here. Read from dist/: the page's initial load is what
 * index.html references; the server worker and elk's worker are their own
 * files; anything else is a lazy chunk.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchPart } from './context.ts';
import { figure } from './figures.ts';

const PART = 'bundle-size';
const KB = 1024;

/**
 * Budgets, gzip. Why these numbers:
 * - page (JS + CSS that index.html loads): 170 KB, the critical-path budget
 *   commonly quoted for a page to be interactive in about 5 s on a mid-range
 *   phone over slow 4G (Alex Russell, "Can You Afford It?", 2017). We sit
 *   well under it; the budget flags a dependency that would eat the margin.
 * - server worker: 120 KB. It loads in parallel with the page but the first
 *   tools/list waits for it, so it is on the critical path too; the SDK and
 *   zod are most of it, so it leaves room for the SDK to grow a little.
 * - elk worker: 500 KB. elkjs is ~1.4 MB raw (~440 KB gzip), fetched only
 *   when the first statechart opens; the budget is its size with a little
 *   headroom, so it catches a second layout engine pulled in beside it.
 * - each lazy chunk (a view or the scenario catalogue, fetched on demand): 60 KB;
 *   the largest one is reported, since each loads alone when first needed.
 */
const BUDGET_KB = { page: 170, serverWorker: 120, elkWorker: 500, lazy: 60 } as const;

function gzipKb(file: string): number {
  return gzipSync(readFileSync(file)).length / KB;
}

export const bundleSize: BenchPart = {
  name: PART,
  async run(ctx) {
    const dist = 'dist';
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const initial = new Set(
      [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!),
    );
    const assets = readdirSync(join(dist, 'assets')).filter((name) => /\.(js|css)$/.test(name));
    const sizes = { page: 0, pageJs: 0, serverWorker: 0, elkWorker: 0, lazy: 0 };
    for (const name of assets) {
      const kb = gzipKb(join(dist, 'assets', name));
      if (initial.has(`assets/${name}`) && name.endsWith('.js')) sizes.pageJs += kb;
      if (initial.has(`assets/${name}`)) sizes.page += kb;
      else if (/^worker-.*\.js$/.test(name)) sizes.serverWorker += kb;
      else if (/^elk\.worker-.*\.js$/.test(name)) sizes.elkWorker += kb;
      else sizes.lazy = Math.max(sizes.lazy, kb);
    }
    ctx.log(`[${PART}] ${assets.length} assets, ${initial.size} loaded by index.html`);
    const budget = (key: keyof typeof BUDGET_KB) => ({ name: 'budget', value: BUDGET_KB[key] });
    return [
      figure(PART, 'page: JS + CSS index.html loads, gzip', sizes.page, 'KB', budget('page')),
      figure(PART, 'page: JS index.html loads, gzip', sizes.pageJs, 'KB', {
        name: 'goal (issue 16)',
        value: 150,
      }),
      figure(PART, 'server worker, gzip', sizes.serverWorker, 'KB', budget('serverWorker')),
      figure(
        PART,
        'elk worker (first statechart), gzip',
        sizes.elkWorker,
        'KB',
        budget('elkWorker'),
      ),
      figure(PART, 'largest lazy chunk, gzip', sizes.lazy, 'KB', budget('lazy')),
    ];
  },
};
