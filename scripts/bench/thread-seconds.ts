/** The main thread's CPU time of the page a CDP session is attached to, the measure the page benches put beside wall time. */
import type { CDPSession } from '@playwright/test';

/** The page's main thread's CPU time so far, in s (CDP Performance metric `ThreadTime`; the session must have sent `Performance.enable`). */
export async function threadSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN;
}
