/**
 * The schedule floor's follower (`bench/floor-follower.ts`) keeps the page's
 * schedule on a simulated clock: each task's next `tasks/get` leaves the
 * interval after its own answer at the earliest (T12), one by one or with the
 * answers handled in one task sharing a timer; what it records adds up.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FloorFollower, type FollowerRecord } from '../../../bench/floor-follower.ts';

const POLL_MS = 250;
/** How long one of the link's tasks takes to hand its answers over, so the last comes this much after the first. */
const TASK_MS = 3;

/** Follows `tasks` tasks for `ms` through a link that answers each poll after a round trip that differs by task. */
async function follow(grouped: boolean, burst: number, tasks = 6, ms = 3000) {
  const sends: [taskId: string, at: number][] = [];
  const answers: [taskId: string, at: number][] = [];
  const ids = Array.from({ length: tasks }, (_, i) => `t${i}`);
  const follower = new FloorFollower(
    ids,
    {
      pollMs: POLL_MS,
      burst,
      grouped,
      // The answers of one burst are handed over one after another in one task of TASK_MS.
      afterThisTask: (callback) => setTimeout(callback, TASK_MS),
    },
    (f) => ({
      send(taskIds) {
        const roundTrip = 2 + (Number(taskIds[0]!.slice(1)) % 3);
        for (const [i, taskId] of taskIds.entries()) {
          sends.push([taskId, performance.now()]);
          setTimeout(
            () => {
              answers.push([taskId, performance.now()]);
              f.answered(taskId);
            },
            roundTrip + (i * TASK_MS) / taskIds.length,
          );
        }
        f.posted(taskIds.length);
      },
      close() {},
    }),
  );
  follower.start();
  await vi.advanceTimersByTimeAsync(POLL_MS);
  follower.measure();
  await vi.advanceTimersByTimeAsync(ms);
  const stopped = follower.stop();
  await vi.advanceTimersByTimeAsync(POLL_MS);
  const record: FollowerRecord = await stopped;
  return { sends, answers, record };
}

/** For every poll after a task's first: how long after its task's previous answer it left. */
function waits(sends: [string, number][], answers: [string, number][]): number[] {
  const out: number[] = [];
  for (const [taskId, at] of sends) {
    const before = answers.filter(([id, t]) => id === taskId && t <= at).map(([, t]) => t);
    if (before.length > 0) out.push(at - Math.max(...before));
  }
  return out;
}

describe('the schedule floor follower', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => vi.useRealTimers());

  for (const [grouped, burst] of [
    [false, 1],
    [true, 3],
  ] as const) {
    it(`T12: no task is polled sooner than the interval after its answer (${grouped ? `bursts of ${burst}` : 'a timer per poll'})`, async () => {
      const { sends, answers, record } = await follow(grouped, burst);
      const waited = waits(sends, answers);
      expect(waited.length).toBeGreaterThan(50);
      expect(Math.min(...waited)).toBeGreaterThanOrEqual(POLL_MS);
      expect(Math.min(...record.late)).toBeGreaterThanOrEqual(0);
      expect(record.errors).toEqual([]);
      // Polls leave together only when grouped: every burst keeps its size.
      expect(new Set(record.pollsPerPost)).toEqual(new Set([burst]));
    });
  }

  it('records a cycle as round trip + interval + late, and the polls in the window', async () => {
    const { record } = await follow(false, 1, 6, 3000);
    expect(record.ms).toBe(3000);
    // A cycle of 250 ms + a 2 to 4 ms round trip: about 12 polls per task in 3 s.
    expect(record.sent).toBeGreaterThanOrEqual(6 * 11);
    expect(record.sent).toBeLessThanOrEqual(6 * 12);
    expect(Math.min(...record.roundTrips)).toBe(2);
    expect(Math.max(...record.roundTrips)).toBe(4);
    expect(record.late.every((late) => late === 0)).toBe(true);
  });
});
