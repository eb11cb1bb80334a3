import { z } from 'zod';
import { defineTool, textResult } from '../tool.ts';

/** A job that cannot stop half-way: cancel is only a request (T17), and this one finishes anyway. */
export const stubbornMigration = defineTool({
  name: 'stubborn_migration',
  title: 'Database migration',
  description:
    'Migrates a table in one transaction that cannot be interrupted. tasks/cancel is acknowledged, yet the task ends completed (T17).',
  args: z.object({
    rows: z.number().int().min(1).max(1_000_000).default(50_000).describe('Rows to migrate'),
  }),
  execution: 'task',
  pollIntervalMs: 500,
  // Not resumable: a worker that stopped mid-migration left it half-applied, and
  // running it again over that needs a person. A fresh worker leaves it to end by its TTL.
  resumable: false,
  run: async ({ args, report, sleepThroughCancel, signal }) => {
    const batches = 5;
    for (let i = 1; i <= batches; i++) {
      await sleepThroughCancel(700);
      const note = signal.aborted
        ? ' (cancel requested; a half-applied migration would be worse, carrying on)'
        : '';
      await report(`migrated ${Math.round((args.rows * i) / batches)} of ${args.rows} rows${note}`);
    }
    return textResult(
      `Migrated ${args.rows} rows${signal.aborted ? ' even though cancellation was requested' : ''}.`,
    );
  },
});
