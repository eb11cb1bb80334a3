/**
 * The schedule floor's follower (`bench/floor-follower.ts`) keeps the page's
 * schedule on a simulated clock: each task's next `tasks/get` leaves the
 * interval after its previous one was sent, and not before that one's answer
 * (T12), one by one or with the answers handled in one task sharing a timer;
 * what it records adds up.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FloorFollower, type FollowerRecord } from '../../../bench/floor-follower.ts';

const POLL_MS = 250;
/** How long one of the link's tasks takes to hand its answers over, so the last comes this much after the first. */
const TASK_MS = 3;

/** Follows `tasks` tasks for `ms` through a link that answers each poll after a round trip that differs by task (+ `slower` ms). */
async function follow(grouped: boolean, burst: number, tasks = 6, ms = 3000, slower = 0) {
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
        const roundTrip = slower + 2 + (Number(taskIds[0]!.slice(1)) % 3);
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
  await vi.advanceTimersByTimeAsync(POLL_MS + slower);
  const record: FollowerRecord = await stopped;
  return { sends, answers, record };
}

/** For every poll after a task's first: how long after its task's previous send, and after that send's answer, it left. */
function waits(sends: [string, number][], answers: [string, number][]) {
  const out: { sinceSend: number; sinceAnswer: number }[] = [];
  const previous = new Map<string, number>();
  for (const [taskId, at] of sends) {
    const sent = previous.get(taskId);
    previous.set(taskId, at);
    if (sent === undefined) continue;
    const answer = answers.find(([id, t]) => id === taskId && t >= sent)?.[1] ?? Infinity;
    out.push({ sinceSend: at - sent, sinceAnswer: at - answer });
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
    it(`T12: each task's next poll leaves one interval after its previous send, once answered (${grouped ? `bursts of ${burst}` : 'a timer per poll'})`, async () => {
      const { sends, answers, record } = await follow(grouped, burst);
      const waited = waits(sends, answers);
      expect(waited.length).toBeGreaterThan(50);
      // Round trips of 2 to 4 ms: paced from the answer, these would be 252 to 254 ms (+ the burst's spread).
      expect(new Set(waited.map((w) => w.sinceSend))).toEqual(new Set([POLL_MS]));
      expect(Math.min(...waited.map((w) => w.sinceAnswer))).toBeGreaterThanOrEqual(0);
      expect(Math.min(...record.late)).toBeGreaterThanOrEqual(0);
      expect(record.errors).toEqual([]);
      // Polls leave together only when grouped: every burst keeps its size.
      expect(new Set(record.pollsPerPost)).toEqual(new Set([burst]));
    });
  }

  it('T12: a round trip longer than the interval is followed the interval less its slack after the answer', async () => {
    const { sends, answers, record } = await follow(false, 1, 6, 3000, POLL_MS + 50);
    const waited = waits(sends, answers);
    expect(waited.length).toBeGreaterThan(20);
    // Never two in flight, and no two reaching the server closer than 225 ms (the interval less
    // its 25 ms slack, counted from the answer): 225 ms after the answer, 527 to 529 after the
    // send; paced from the send alone it would leave on the answer (0 ms after it).
    expect(Math.min(...waited.map((w) => w.sinceAnswer))).toBeGreaterThanOrEqual(POLL_MS - 25);
    expect(Math.max(...waited.map((w) => w.sinceAnswer))).toBeLessThanOrEqual(POLL_MS - 24);
    expect(Math.max(...record.late)).toBeLessThanOrEqual(1);
  });

  it('records a cycle as the interval + late, and the polls in the window', async () => {
    const { record } = await follow(false, 1, 6, 3000);
    expect(record.ms).toBe(3000);
    // A cycle of 250 ms send to send (the round trip of 2 to 4 ms is inside it): 12 polls per task in 3 s.
    expect(record.sent).toBe(6 * 12);
    expect(Math.min(...record.roundTrips)).toBe(2);
    expect(Math.max(...record.roundTrips)).toBe(4);
    expect(record.late.every((late) => late === 0)).toBe(true);
  });
});
