/**
 * When the task machine sends tasks/get, and the schedule it keeps in
 * `context.nextPollAt` for the page to store: one interval after each
 * tasks/get was sent, once answered (T12), the backoff after a failure (C8), TTL give-ups (T13), and
 * nothing scheduled once the task ended. Driven by SimulatedClock.
 */
import { describe, expect, it } from 'vitest';
import { ttlMs } from '../../../src/machines/task-machine.ts';
import { BASE, flush, follow, report, TASK_ID } from '../helpers/task-machine-driver.ts';

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

describe('taskMachine: context.nextPollAt', () => {
  it('T12: nextPollAt is when the next tasks/get goes out, pollIntervalMs after the last one was sent', async () => {
    const { calls, advance, snap } = follow({
      task: { pollIntervalMs: 700 },
      poll: (n) => report('working', { pollIntervalMs: 700 }, n),
    });
    expect(snap().context.nextPollAt).toBe(BASE + 700);
    const due: number[] = [];
    for (let poll = 1; poll <= 3; poll++) {
      due.push(snap().context.nextPollAt! - BASE);
      await advance(700);
    }
    expect(calls.get.map((c) => c.at)).toEqual(due);
    expect(due).toEqual([700, 1400, 2100]);
    expect(snap().context.nextPollAt).toBe(BASE + 2800);
  });

  it('T12: nothing is scheduled while a tasks/get is out; its answer schedules the next', async () => {
    let answer: (task: ReturnType<typeof report>) => void = () => {};
    const { advance, snap } = follow({
      poll: () => new Promise((resolve) => (answer = resolve)),
    });
    await advance(1000);
    expect(snap().matches({ active: { lifecycle: 'polling' } })).toBe(true);
    expect(snap().context.nextPollAt).toBeUndefined();
    await advance(10);
    answer(report('working', { pollIntervalMs: 400 }, 1010));
    await flush();
    // Paced from its send at 1000 (T12), by the interval the answer reports (T6); the answer came
    // within the slack (40 ms), so it costs nothing.
    expect(snap().context.nextPollAt).toBe(BASE + 1000 + 400);
  });

  it('T12, T14: a tasks/get answer clears the failures and schedules by the interval it reports, and a poll asking nothing keeps pendingInputs as it was', async () => {
    let n = 0;
    const { advance, snap } = follow({
      task: { pollIntervalMs: 300 },
      poll: () => {
        n++;
        if (n === 1) return Promise.reject(new Error('connection reset'));
        return report('working', { pollIntervalMs: 200 }, n);
      },
    });
    const before = snap().context.pendingInputs;
    await advance(300); // fails: retry after max(300, backoff 500)
    expect(snap().context.pollFailures).toBe(1);
    await advance(500); // answered at 800, reporting 200 ms
    expect(snap().context.pollFailures).toBe(0);
    expect(snap().context.nextPollAt).toBe(BASE + 1000);
    expect(snap().context.pendingInputs).toBe(before);
  });

  it('C8, T12: after a failed tasks/get nextPollAt is the backoff retry time, and the retry goes out then', async () => {
    const { calls, advance, snap } = follow({
      task: { pollIntervalMs: 100 },
      poll: (n) =>
        n <= 2
          ? Promise.reject(new Error('connection reset'))
          : report('working', { pollIntervalMs: 100 }, n),
    });
    await advance(100); // first poll fails at 100: retry after backoffMs(1) = 500
    expect(snap().matches({ active: { lifecycle: 'backoff' } })).toBe(true);
    expect(snap().context.nextPollAt).toBe(BASE + 600);
    await advance(500); // second fails at 600: retry after backoffMs(2) = 1000
    expect(snap().context.nextPollAt).toBe(BASE + 1600);
    await advance(1000); // third succeeds at 1600: back to the interval
    expect(calls.get.map((c) => c.at)).toEqual([100, 600, 1600]);
    expect(snap().context.nextPollAt).toBe(BASE + 1700);
  });

  it('T6, T18: a push that changes pollIntervalMs reschedules nextPollAt from the push', async () => {
    const { calls, advance, send, snap } = follow();
    await advance(300);
    await send({
      type: 'task.notification',
      task: report('working', { pollIntervalMs: 2000 }, 300),
    });
    expect(snap().context.nextPollAt).toBe(BASE + 2300);
    await advance(2000);
    expect(calls.get.map((c) => c.at)).toEqual([2300]);
  });

  it('M3: a poll that fell due while the link is down keeps its due time until the link is back', async () => {
    const { advance, send, snap } = follow();
    await send({ type: 'connection.lost', reason: 'dropped' });
    await advance(1500);
    expect(snap().matches({ active: { lifecycle: 'offline' } })).toBe(true);
    expect(snap().context.nextPollAt).toBe(BASE + 1000);
    await send({ type: 'connection.restored' });
    expect(snap().context.nextPollAt).toBe(BASE + 2500);
  });

  it('T9, T13: nextPollAt is cleared at a final state, polled, pushed or gone', async () => {
    const polled = follow({ poll: () => report('completed', {}, 1) });
    await polled.advance(1000);
    expect(polled.snap().value).toBe('completed');
    expect(polled.snap().context.nextPollAt).toBeUndefined();

    const pushed = follow();
    await pushed.send({ type: 'task.notification', task: report('cancelled', {}, 5) });
    expect(pushed.snap().value).toBe('cancelled');
    expect(pushed.snap().context.nextPollAt).toBeUndefined();

    const gone = follow({ poll: () => Promise.reject({ code: -32602, message: 'Unknown task' }) });
    await gone.advance(1000);
    expect(gone.snap().value).toBe('gone');
    expect(gone.snap().context.nextPollAt).toBeUndefined();
  });
});

describe('taskMachine: TTL and backoff', () => {
  it('T13: gives up as expired once createdAt + ttlMs (+ one interval) has passed', async () => {
    const { calls, advance, snap } = follow({
      task: { ttlMs: 5000 },
      poll: (n) => report('working', { ttlMs: 5000 }, n),
    });
    await advance(6999);
    expect(calls.get).toHaveLength(6); // the poll at 6000 is within the grace
    expect(snap().status).toBe('active');
    await advance(1);
    expect(snap().value).toBe('expired');
    expect(snap().context.outcome).toBe('expired');
    expect(calls.get).toHaveLength(6);
  });

  it("T13: a slow answer just before the TTL does not end the task unasked: the next poll gets the server's verdict", async () => {
    // Every answer takes 800 ms: the last poll sent before the TTL is answered "working" after it.
    const answers: { at: number; resolve: () => void }[] = [];
    let simulatedNow = 0;
    const { calls, advance, snap, clock } = follow({
      task: { ttlMs: 5000, pollIntervalMs: 500 },
      poll: async (_, at) => {
        await new Promise<void>((resolve) => answers.push({ at: at + 800, resolve }));
        return at < 5000
          ? report('working', { ttlMs: 5000, pollIntervalMs: 500 }, at)
          : report('failed', { ttlMs: 5000, error: { code: -32603, message: 'Task expired' } }, at);
      },
    });
    for (let t = 0; t < 8000; t++) {
      await advance(1);
      simulatedNow = clock.now();
      for (const answer of answers.filter((a) => a.at <= simulatedNow)) answer.resolve();
    }
    // Each answer is slower than the interval, so the next poll goes the interval less its slack
    // (450 ms) after it: 500, 1750, 3000, 4250 (answered at 5050 "working", past the TTL), then
    // 5500 gets the verdict.
    expect(calls.get.map((c) => Math.round(c.at / 10) * 10)).toEqual([500, 1750, 3000, 4250, 5500]);
    expect(snap().value).toBe('failed');
  });

  it('T13: uses the injected now(), the ttlMs of the latest report, and never expires with ttlMs null', async () => {
    let wall = BASE;
    const { advance, snap, calls } = follow({
      now: () => wall,
      poll: (n) => report('working', { ttlMs: n === 1 ? null : 60_000 }, n),
    });
    wall = BASE + 365 * 86_400_000;
    await advance(1000);
    expect(ttlMs(snap().context)).toBeNull();
    await advance(1000); // created with ttlMs null; first report kept it null
    expect(calls.get).toHaveLength(2);
    expect(ttlMs(snap().context)).toBe(60_000);
    await advance(1000);
    expect(snap().value).toBe('expired');
  });

  it('C8, M3: transport errors back off exponentially and keep the same taskId', async () => {
    const failing = new Set([1, 2, 3, 4, 5, 6, 8, 9]);
    const { calls, advance, snap } = follow({
      task: { pollIntervalMs: 100 },
      poll: (n) =>
        failing.has(n)
          ? Promise.reject(new Error('connection reset'))
          : report('working', { pollIntervalMs: 100 }, n),
    });
    await advance(100 + 500 + 1000 + 2000 + 4000 + 8000 + 8000 + 100 + 500 + 1000);
    // capped at 8000; a success (7th) resets the backoff to 500
    expect(gaps(calls.get.map((c) => c.at))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 100, 500, 1000,
    ]);
    expect(calls.get.every((c) => c.taskId === TASK_ID)).toBe(true);
    expect(snap().context.lastError).toEqual({ message: 'connection reset' });
    expect(snap().matches({ active: { lifecycle: 'waiting' } })).toBe(true);
  });

  it('T12: a backoff is never shorter than pollIntervalMs', async () => {
    const { calls, advance } = follow({
      poll: (n) => (n === 1 ? Promise.reject(new Error('timeout')) : report('working')),
    });
    await advance(2999);
    expect(calls.get.map((c) => c.at)).toEqual([1000, 2000]);
  });

  it('C7: other protocol errors on tasks/get back off instead of ending', async () => {
    const { calls, advance, snap } = follow({
      poll: (n) =>
        n === 1 ? Promise.reject({ code: -32603, message: 'internal' }) : report('working', {}, n),
    });
    await advance(2000);
    expect(calls.get).toHaveLength(2);
    expect(snap().status).toBe('active');
    expect(snap().context.lastError).toEqual({ code: -32603, message: 'internal' });
  });
});
