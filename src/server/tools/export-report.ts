import { z } from 'zod';
import { defineTool, textResult } from '../tool.ts';

const STAGES = ['querying orders', 'joining customers', 'aggregating by region', 'rendering charts', 'writing PDF', 'uploading'];

/** A long export that reports each stage in `statusMessage`, the way a real job shows progress on a task. */
export const exportReport = defineTool({
  name: 'export_report',
  title: 'Export quarterly report',
  description: 'A long export that reports its progress in statusMessage at each stage. Honours cancellation between stages.',
  args: z.object({
    quarter: z.enum(['Q1', 'Q2', 'Q3', 'Q4']).default('Q3').describe('Which quarter to export'),
    stageMs: z.number().int().min(50).max(10_000).default(800).describe('How long each stage takes, in ms'),
  }),
  execution: 'task',
  pollIntervalMs: 500,
  run: async ({ args, report, sleep }) => {
    for (const [i, stage] of STAGES.entries()) {
      await report(`${Math.round((i / STAGES.length) * 100)}%: ${stage}`);
      await sleep(args.stageMs);
    }
    await report('100%: done');
    return textResult(`Exported ${args.quarter} report: 42 pages, 1.8 MB (report-${args.quarter.toLowerCase()}.pdf)`);
  },
});
