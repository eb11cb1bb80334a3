/**
 * The schedule floor's figures (scripts/bench/schedule-floor.ts), from what
 * its minimal follower recorded (bench/floor-follower.ts): `tasks/get`
 * achieved against what the tasks ask for, and where a task's cycle goes.
 * Each task's next poll is due the interval after its previous send, and
 * no sooner than the interval less its slack after that one's answer (T12,
 * `nextPollDueAt`), so a cycle (send to send) is the interval, or the round
 * trip + the interval less its slack when that is longer, + the lateness past the
 * due time; their means add up to the cycle the achieved rate implies
 * (tasks / rate), which is printed beside them as a check.
 */
import type { FollowerRecord } from '../../bench/floor-follower.ts';
import { figure, percentile, type Figure } from './figures.ts';
import { nextPollDueAt } from '../../src/machines/task-machine-timing.ts';

/** Several windows of one variant as one record (blocks interleaved with other variants). */
export function mergeRecords(records: readonly FollowerRecord[]): FollowerRecord {
  const all = <K extends keyof FollowerRecord>(key: K) =>
    records.flatMap((r) => r[key] as unknown[]) as FollowerRecord[K];
  return {
    ms: records.reduce((sum, r) => sum + r.ms, 0),
    sent: records.reduce((sum, r) => sum + r.sent, 0),
    roundTrips: all('roundTrips'),
    late: all('late'),
    timerLate: all('timerLate'),
    pollsPerPost: all('pollsPerPost'),
    answersPerPost: all('answersPerPost'),
    errors: all('errors'),
  };
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** `tasks/get` sent per second over the record's windows. */
export function achievedRate(record: FollowerRecord): number {
  return record.ms > 0 ? record.sent / (record.ms / 1000) : NaN;
}

/** `entries` by achieved rate, best first: the schedule's ceiling on a path is whichever variant did best in the run. */
export function rankByRate<K>(entries: Iterable<[K, FollowerRecord]>): { key: K; rate: number }[] {
  return [...entries]
    .map(([key, record]) => ({ key, rate: achievedRate(record) }))
    .filter(({ rate }) => Number.isFinite(rate))
    .sort((a, b) => b.rate - a.rate);
}

/** The mean cycle, ms, split: round trip, the wait it was due after (`nextPollDueAt`: the interval, or the round trip + the interval less its slack), lateness; and the cycle the achieved rate implies for `tasks`. */
export function cycleSplit(record: FollowerRecord, tasks: number, pollMs: number) {
  const roundTrip = mean(record.roundTrips);
  const due = mean(record.roundTrips.map((trip) => nextPollDueAt(0, trip, pollMs)));
  const late = mean(record.late);
  return {
    roundTrip,
    due,
    late,
    sum: due + late,
    implied: (tasks * 1000) / achievedRate(record),
  };
}

/**
 * The figures for one variant (`label` names it): achieved / asked, the
 * cycle's split (p50, p95, mean of the round trip and the lateness; the
 * timers' own lateness), polls and answers per `postMessage`, and the
 * main thread's CPU per poll when `cpuSeconds` was read.
 */
export function scheduleFigures(
  part: string,
  label: string,
  record: FollowerRecord,
  tasks: number,
  pollMs: number,
  cpuSeconds?: number,
): Figure[] {
  const rate = achievedRate(record);
  const split = cycleSplit(record, tasks, pollMs);
  const ms = (name: string, value: number, reference?: { name: string; value: number }) =>
    figure(part, `${name}, ${label}`, value, 'ms', reference);
  return [
    figure(
      part,
      `tasks/get achieved, ${label}`,
      rate,
      'req/s',
      { name: 'asked', value: (tasks * 1000) / pollMs },
      `${record.sent} sent in ${(record.ms / 1000).toFixed(1)} s`,
    ),
    ms('cycle: round trip p50', percentile(record.roundTrips, 50)),
    ms('cycle: round trip p95', percentile(record.roundTrips, 95)),
    ms('cycle: late past due p50', percentile(record.late, 50)),
    ms('cycle: late past due p95', percentile(record.late, 95)),
    ms('cycle: timer fired late p95', percentile(record.timerLate, 95)),
    figure(
      part,
      `cycle: due after + late (means), ${label}`,
      split.sum,
      'ms',
      { name: 'implied by the rate', value: split.implied },
      `due after ${split.due.toFixed(1)} ms (${pollMs} ms, round trip ${split.roundTrip.toFixed(1)} ms) + late ${split.late.toFixed(1)} ms`,
    ),
    figure(part, `polls per postMessage (mean), ${label}`, mean(record.pollsPerPost), 'polls'),
    figure(
      part,
      `answers per postMessage (mean), ${label}`,
      mean(record.answersPerPost),
      'answers',
    ),
    ...(cpuSeconds !== undefined
      ? [
          figure(
            part,
            `tasks/get per CPU second of the main thread, ${label}`,
            record.sent / cpuSeconds,
            'req/CPU s',
          ),
        ]
      : []),
  ];
}
