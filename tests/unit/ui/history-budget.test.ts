/**
 * The page's budget of history steps: each task's history keeps a share of
 * one budget, so a thousand tasks do not keep a thousand full histories.
 * Driven with real recorders on real task actors (simulated clock).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { HistoryBudget } from '../../../src/ui/state/history-budget.ts';
import { recordedRun as run, report } from '../helpers/recorded-task-run.ts';

describe('perf: HistoryBudget', () => {
  it('gives each history the most while few share it, an even share past that, never under the least', () => {
    const budget = new HistoryBudget(1000, 400, 50);
    expect(budget.share).toBe(400);
    const releases = Array.from({ length: 2 }, () => budget.join({}));
    expect(budget.share).toBe(400); // 1000 / 2 = 500, capped at the most
    releases.push(...Array.from({ length: 3 }, () => budget.join({})));
    expect(budget.share).toBe(200); // 1000 / 5
    releases.push(...Array.from({ length: 95 }, () => budget.join({})));
    expect(budget.members).toBe(100);
    expect(budget.share).toBe(50); // 1000 / 100 = 10, raised to the least
    for (const release of releases.splice(0, 96)) release();
    expect(budget.members).toBe(4);
    expect(budget.share).toBe(250);
  });

  it('counts a member once however often it is released', () => {
    const budget = new HistoryBudget(1000, 400, 50);
    const release = budget.join({});
    budget.join({});
    release();
    release();
    expect(budget.members).toBe(1);
  });

  it('lets a member collected without a release leave the count (a dismissed task’s recorder)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const budget = new HistoryBudget(1000, 400, 50);
    budget.join({ kept: 'by nobody' });
    const kept = { kept: 'by the test' };
    budget.join(kept);
    expect(budget.members).toBe(2);
    // Finalizers run in a later task after the collection that found the member gone.
    for (let round = 0; round < 50 && budget.members > 1; round++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(budget.members).toBe(1);
    expect(kept.kept).toBe('by the test');
  });
});

describe('perf: HistoryRecorder on a budget', () => {
  it('keeps only its share of the steps, and more once another history leaves', async () => {
    const budget = new HistoryBudget(40, 30, 5);
    const working = (at: number) => report('working', at, { pollIntervalMs: 100 });
    const a = run([working], { pollIntervalMs: 100 }, budget);
    const b = run([working], { pollIntervalMs: 100 }, budget);
    expect(a.recorder.limit).toBe(20);
    await a.advance(3000); // about 30 polls, two steps each
    const kept = a.steps();
    expect(a.recorder.latest!.index).toBeGreaterThan(40);
    expect(kept.length).toBe(20);
    expect(kept.at(-1)).toBe(a.recorder.latest); // the newest are the ones kept

    b.recorder.stop();
    expect(budget.members).toBe(1);
    expect(a.recorder.limit).toBe(30);
    await a.advance(3000);
    expect(a.steps().length).toBe(30);
    a.recorder.stop();
    a.actor.stop();
    b.actor.stop();
  });
});
