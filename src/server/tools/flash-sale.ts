import { z } from 'zod';
import { defineTool, textResult } from '../tool.ts';

/** A job slower than its own TTL: the task expires to `failed`, then disappears (-32602) (T13). */
export const flashSaleQuote = defineTool({
  name: 'flash_sale_quote',
  title: 'Flash-sale quote (short TTL)',
  description: 'A price quote only valid for a few seconds (ttlMs 4000), from a pricing job that takes longer. The task expires: failed, then gone (T13).',
  args: z.object({ sku: z.string().default('SKU-1234').describe('Product to quote') }),
  execution: 'task-required',
  ttlMs: 4000,
  pollIntervalMs: 500,
  run: async ({ args, report, sleep }) => {
    for (let s = 1; s <= 10; s++) {
      await report(`asking supplier ${s} of 10 for ${args.sku}`);
      await sleep(1000);
    }
    return textResult(`Quote for ${args.sku}: 19.99`);
  },
});
