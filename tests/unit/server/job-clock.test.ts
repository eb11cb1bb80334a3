/**
 * The jobs' clock: a held clock stops every job's sleep where it is, and a
 * release carries on with the time left. The drill relies on it so the task
 * a learner is asked about does not move on under the question.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobClock } from '../../../src/server/job-clock.ts';
import { JobCancelled } from '../../../src/server/tool.ts';
import { createHarness, envelope, pollUntil, terminal } from '../helpers/harness.ts';
import { simulate, useSimulatedTime } from '../helpers/simulated-time.ts';

describe('JobClock', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  /** Whether the sleep has ended by now. */
  const track = (sleeping: Promise<void>) => {
    const state = { done: false };
    void sleeping.then(() => (state.done = true));
    return state;
  };

  it('sleeps like a timer while it runs', async () => {
    const clock = new JobClock();
    const nap = track(clock.sleep(1000));
    await vi.advanceTimersByTimeAsync(999);
    expect(nap.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(nap.done).toBe(true);
  });

  it('stands still while held and carries on with the time that was left', async () => {
    const clock = new JobClock();
    const nap = track(clock.sleep(1000));
    await vi.advanceTimersByTimeAsync(400);
    clock.hold();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(nap.done).toBe(false);
    clock.release();
    await vi.advanceTimersByTimeAsync(599);
    expect(nap.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(nap.done).toBe(true);
  });

  it('holds a sleep that starts while held until the release', async () => {
    const clock = new JobClock();
    clock.hold();
    const nap = track(clock.sleep(100));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(nap.done).toBe(false);
    clock.release();
    await vi.advanceTimersByTimeAsync(100);
    expect(nap.done).toBe(true);
  });

  it('still lets a cancel through while held', async () => {
    const clock = new JobClock();
    clock.hold();
    const controller = new AbortController();
    const nap = clock.sleep(1000, controller.signal);
    controller.abort();
    await expect(nap).rejects.toBeInstanceOf(JobCancelled);
  });
});

describe('a held server (real server, real port, simulated clock)', () => {
  beforeEach(useSimulatedTime);
  afterEach(() => vi.useRealTimers());

  it('keeps a working task working while held, answering polls, and finishes it after the release', () =>
    simulate(async () => {
      const harness = await createHarness();
      try {
        const created = await harness.client.request(
          'tools/call',
          { name: 'slow_compute', arguments: { seconds: 0.3 }, _meta: envelope(true) },
          { tasks: true },
        );
        const taskId = String(created['taskId']);
        harness.server.clock.hold();
        // Long past the job's 0.3 s: unheld, it would have completed by now.
        await new Promise((resolve) => setTimeout(resolve, 800));
        const held = await harness.client.request('tasks/get', { taskId }, { tasks: true });
        expect(held['status']).toBe('working');
        harness.server.clock.release();
        const done = await pollUntil(harness.client, taskId, terminal, 3000);
        expect(done['status']).toBe('completed');
      } finally {
        await harness.close();
      }
    }));
});
