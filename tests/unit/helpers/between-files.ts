/**
 * Runs around every test file (vitest `setupFiles`). Files share a worker
 * (`isolate: false`), so a file that failed before restoring the real clock
 * or a stubbed global must not leave it to the next file: a leaked fake
 * clock would hang any later file that waits on a timer.
 */
import { afterAll, expect, vi } from 'vitest';

afterAll(() => {
  if (vi.isFakeTimers()) {
    console.warn(`${expect.getState().testPath ?? 'a test file'} left fake timers on`);
    vi.useRealTimers();
  }
  vi.unstubAllGlobals();
});
