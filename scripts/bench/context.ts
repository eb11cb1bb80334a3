/** What the runner (scripts/bench.ts) hands each part, and what a part is. */
import type { Browser } from '@playwright/test';
import type { Figure } from './figures.ts';

export interface BenchContext {
  /** CI size: each part a few seconds, figures only indicative. */
  small: boolean;
  /** One Chromium for every part, launched on first use; parts open their own contexts. */
  browser(): Promise<Browser>;
  /** The app's production build (dist/), served. */
  appUrl: string;
  /** The bench pages (dist-bench/), served. */
  benchUrl: string;
  /** Where the run writes its results (bench-results/): parts may add files there, such as CPU profiles. */
  outDir: string;
  /** Progress, on stderr, so stdout stays the figures. */
  log(message: string): void;
}

export interface BenchPart {
  name: string;
  run(ctx: BenchContext): Promise<Figure[]>;
}
