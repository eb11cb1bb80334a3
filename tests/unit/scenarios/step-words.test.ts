import { describe, expect, it } from 'vitest';
import { stepWord, type StepStatus } from '../../../src/scenarios/run-state.ts';

const run = (status: 'running' | 'failed' | 'ready', ...steps: StepStatus[]) => ({
  status,
  steps: steps.map((s) => ({ status: s })),
});

describe("the steps list's words", () => {
  it('only the step that comes next is "next"; the ones after it are "later"', () => {
    const snapshot = run('running', 'done', 'acting', 'upcoming', 'upcoming');
    expect([0, 1, 2, 3].map((i) => stepWord(snapshot, i))).toEqual([
      'done',
      'now',
      'next',
      'later',
    ]);
    const fresh = run('ready', 'upcoming', 'upcoming', 'upcoming');
    expect([0, 1, 2].map((i) => stepWord(fresh, i))).toEqual(['next', 'later', 'later']);
  });

  it('a run that stopped early leaves its unreached steps "not run", never "next"', () => {
    const snapshot = run('failed', 'done', 'timed-out', 'upcoming');
    expect([0, 1, 2].map((i) => stepWord(snapshot, i))).toEqual(['done', 'timed out', 'not run']);
  });
});
