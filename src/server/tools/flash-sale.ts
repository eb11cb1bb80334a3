import { z } from 'zod';
import { defineTool, textResult } from '../tool.ts';

/** The checkpoint: how many suppliers answered. */
const Progress = z.object({ suppliersAsked: z.number().int().min(0).max(10) });

/**
 * A job slower than its own TTL: the task expires to `failed`, then
 * disappears (-32602) (T13). A stale quote is worthless, so it is deleted
 * 4 s after expiry rather than the server's usual minute: the whole life
 * fits in a scenario a learner watches.
 */
export const flashSaleQuote = defineTool({
  name: 'flash_sale_quote',
  title: 'Flash-sale quote (short TTL)',
  description:
    'A price quote only valid for a few seconds (ttlMs 4000), from a pricing job that takes longer. The task expires: failed, then 4 s later gone (T13).',
  args: z.object({ sku: z.string().default('SKU-1234').describe('Product to quote') }),
  execution: 'task-required',
  ttlMs: 4000,
  purgeAfterMs: 4000,
  pollIntervalMs: 500,
  resumable: true,
  run: async ({ args, report, sleep, checkpoint, resumeFrom }) => {
    const resumed = Progress.safeParse(resumeFrom);
    for (let s = (resumed.success ? resumed.data.suppliersAsked : 0) + 1; s <= 10; s++) {
      await report(`asking supplier ${s} of 10 for ${args.sku}`);
      await sleep(1000);
      await checkpoint(
        { suppliersAsked: s } satisfies z.infer<typeof Progress>,
        `${s} of 10 suppliers asked`,
      );
    }
    return textResult(`Quote for ${args.sku}: 19.99`);
  },
});
