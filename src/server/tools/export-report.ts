import { z } from 'zod';
import { defineTool, textResult } from '../tool.ts';

const STAGES = [
  'querying orders',
  'joining customers',
  'aggregating by region',
  'rendering charts',
  'writing PDF',
  'uploading',
];

/** The checkpoint: how many stages are done. */
const Progress = z.object({ stagesDone: z.number().int().min(0).max(STAGES.length) });

/**
 * A long export that reports each stage in `statusMessage`, the way a real
 * job shows progress on a task, and saves a checkpoint after each one: a
 * fresh worker carries it on from the next stage.
 */
export const exportReport = defineTool({
  name: 'export_report',
  title: 'Export quarterly report',
  description:
    'A long export that reports its progress in statusMessage at each stage. Honours cancellation between stages.',
  args: z.object({
    quarter: z.enum(['Q1', 'Q2', 'Q3', 'Q4']).default('Q3').describe('Which quarter to export'),
    stageMs: z
      .number()
      .int()
      .min(50)
      .max(10_000)
      .default(800)
      .describe('How long each stage takes, in ms'),
  }),
  execution: 'task',
  pollIntervalMs: 500,
  resumable: true,
  run: async ({ args, report, sleep, checkpoint, resumeFrom }) => {
    const resumed = Progress.safeParse(resumeFrom);
    for (let i = resumed.success ? resumed.data.stagesDone : 0; i < STAGES.length; i++) {
      const stage = STAGES[i];
      await report(`${Math.round((i / STAGES.length) * 100)}%: ${stage}`);
      await sleep(args.stageMs);
      await checkpoint(
        { stagesDone: i + 1 } satisfies z.infer<typeof Progress>,
        `${i + 1} of ${STAGES.length} stages done (${stage})`,
      );
    }
    await report('100%: done');
    return textResult(
      `Exported ${args.quarter} report: 42 pages, 1.8 MB (report-${args.quarter.toLowerCase()}.pdf)`,
    );
  },
});
