/**
 * The real stack as the session and record tests use it: for each test of the calling
 * `describe` block, fake timers from 2026-07-28T10:00Z and a fresh `RealStack` (memory store,
 * seed 7, no sweep or adoption rounds, so only what the test does happens), closed after it.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { FAKE_TIMERS, RealStack } from './real-stack.ts';

/** Registers the hooks; `use` is given each test's fresh stack before the test runs. */
export function freshRealStackEachTest(use: (stack: RealStack) => void): void {
  let stack: RealStack | undefined;
  beforeEach(() => {
    vi.useFakeTimers(FAKE_TIMERS);
    vi.setSystemTime(Date.parse('2026-07-28T10:00:00Z'));
    stack = new RealStack('memory', 7, { sweepIntervalMs: 0, adoptIntervalMs: 0 });
    use(stack);
  });
  afterEach(async () => {
    await stack?.close();
    vi.useRealTimers();
  });
}
