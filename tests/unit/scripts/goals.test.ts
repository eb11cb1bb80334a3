/**
 * The bench's goals (`scripts/bench/goals.ts`): beside the follow-1,000 goal,
 * the schedule floor's lines read the page's achieved rate against the same
 * schedule run by the smallest client, with no bound of their own, while
 * the goal itself keeps its bound against the asked rate.
 */
import { describe, expect, it } from 'vitest';
import { figure } from '../../../scripts/bench/figures.ts';
import { goals, goalTable } from '../../../scripts/bench/goals.ts';
import { AT_TOP } from '../../../scripts/bench/page-follow.ts';
import { bestAchievedName } from '../../../scripts/bench/schedule-floor.ts';

const asked = { name: 'asked', value: 4000 };
const figures = [
  figure('page-follow', `tasks/get achieved, 1000 tasks @ 250 ms, ${AT_TOP}`, 3500, 'req/s', asked),
  figure('schedule-floor', bestAchievedName(1000, 'bare'), 3900, 'req/s', asked),
  figure('schedule-floor', bestAchievedName(1000, 'page'), 3800, 'req/s', asked),
];

describe('goals beside the schedule floor', () => {
  const results = goals(figures);
  const line = (start: string) => results.find((r) => r.goal.startsWith(start))!;

  it('keeps the follow goal against the asked rate, with its bound', () => {
    const goal = line('follow 1,000 tasks (at the top): tasks/get achieved / asked');
    expect(goal.ratio).toBeCloseTo(0.875);
    expect(goal.met).toBe(false);
  });

  it('reads the page against each floor, and each floor against the asked rate, unbounded', () => {
    const bare = line('follow 1,000 tasks (at the top): page / the schedule floor (bare port)');
    expect(bare.ratio).toBeCloseTo(3500 / 3900);
    expect(bare.met).toBeUndefined();
    expect(bare.bound).toBe('-');
    const path = line("follow 1,000 tasks (at the top): page / the schedule floor (page's client");
    expect(path.ratio).toBeCloseTo(3500 / 3800);
    expect(line('follow 1,000 tasks: the schedule floor (bare port').ratio).toBeCloseTo(0.975);
    // The floor's lines follow the goal they stand beside.
    const order = results.map((r) => r.goal);
    expect(order.indexOf(bare.goal)).toBe(
      order.indexOf(line('follow 1,000 tasks (at the top): tasks/get').goal) + 3,
    );
    expect(goalTable(results)).toMatch(/page \/ the schedule floor \(bare port\).*-\s+-$/m);
  });
});
