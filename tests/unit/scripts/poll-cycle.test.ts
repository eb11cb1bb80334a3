/**
 * The page-follow bench's split of a poll's cycle (`scripts/bench/poll-cycle.ts`)
 * on hand-made records: a request is paired with its answer (at the worker's
 * port and at the page's handler) by id and with its task's next request;
 * the hops add up to the cycle (`nextPollDueAt` + late, T12's
 * pacing being from send to send), and `late` splits by the wall timer's
 * round that sent the next request.
 */
import { describe, expect, it } from 'vitest';
import {
  formatPollCycle,
  pollCycle,
  type PageRecord,
  type WorkerRecord,
} from '../../../scripts/bench/poll-cycle.ts';

const page: PageRecord = {
  posts: [
    [1000, 1, 'a', 0],
    [1000, 2, 'b', 0],
    [1275, 3, 'a', 1],
    [1300, 4, 'b', 1],
  ],
  // Request 2 (task b) was never answered: b's next request makes no cycle.
  answers: [
    [1010, 1],
    [1290, 3],
  ],
  rounds: [
    [995, 998],
    [1252, 1270],
  ],
};
const worker: WorkerRecord = {
  answers: [
    [1004, 1],
    [1280, 3],
  ],
};

describe('pollCycle', () => {
  it('pairs requests with answers and the next request, the hops adding up to the cycle', () => {
    const cycle = pollCycle(page, worker, 250);
    expect(cycle.cycle).toMatchObject({ count: 1, p50: 275 });
    expect(cycle.roundTrip).toMatchObject({ count: 2, mean: 12.5, p50: 10, p99: 15 });
    expect(cycle.toWorkerAnswer).toMatchObject({ count: 2, p50: 4, p99: 5 });
    expect(cycle.backToPage).toMatchObject({ count: 2, p50: 6, p99: 10 });
    // Due at max(1010, 1000 + 250) = 1250, sent at 1275 (paced from the answer: due at 1260, 15 late).
    expect(cycle.dueAfter).toMatchObject({ count: 1, p50: 250 });
    expect(cycle.late).toMatchObject({ count: 1, p50: 25 });
    expect(cycle.wallTimerLate.p50).toBe(18); // round 1 began at 1270, set for 1252
    expect(cycle.roundBeforeSend.p50).toBe(5); // its batch left at 1275
    expect(cycle.answerToDue.p50).toBe(2); // 25 - (1275 - 1252)
    // Requests 1 and 2 left in one postMessage (one time), 3 and 4 each alone.
    expect(cycle.sentTogether).toMatchObject({ count: 4, p50: 1, p99: 2, mean: 1.5 });
    expect(cycle.answeredTogether).toMatchObject({ count: 2, p99: 1 });
    // The wait it was due after + late is its cycle.
    expect(cycle.dueAfter.p50 + cycle.late.p50).toBe(cycle.cycle.p50);
  });

  it('leaves the worker side out when the worker recorded nothing', () => {
    const cycle = pollCycle(page, undefined, 250);
    expect(cycle.toWorkerAnswer).toBeUndefined();
    expect(cycle.backToPage).toBeUndefined();
    expect(cycle.roundTrip.count).toBe(2);
  });

  it('does not split late for a request sent outside a wall timer round', () => {
    const cycle = pollCycle(
      { ...page, posts: page.posts.map(([at, id, taskId]) => [at, id, taskId, -1]) },
      worker,
      250,
    );
    expect(cycle.late.count).toBe(1);
    expect(cycle.wallTimerLate.count).toBe(0);
  });

  it('prints each hop beside the interval and the sum against the achieved cycle', () => {
    const lines = formatPollCycle('cycle', pollCycle(page, worker, 250), 275);
    expect(lines[0]).toContain('250 ms interval');
    expect(lines.at(-1)).toContain('against 275.0 ms');
  });
});
