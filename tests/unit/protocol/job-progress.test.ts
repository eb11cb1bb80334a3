/**
 * The job progress a task report carries under `_meta`: read once per
 * report (a card reads it on every redraw), anything malformed as none.
 */
import { describe, expect, it } from 'vitest';
import { JOB_PROGRESS_META, jobProgressOf } from '../../../src/protocol/job-progress.ts';

const reportWith = (progress: unknown) => ({
  taskId: 't1',
  status: 'working',
  _meta: { [JOB_PROGRESS_META]: progress },
});

describe('jobProgressOf', () => {
  it('reads the checkpoint and resumes, and gives the same reading for the same report', () => {
    const report = reportWith({ checkpoint: { label: 'step 2', savedAt: 'x' }, resumes: 1 });
    const progress = jobProgressOf(report);
    expect(progress).toEqual({ checkpoint: { label: 'step 2', savedAt: 'x' }, resumes: 1 });
    expect(jobProgressOf(report)).toBe(progress);
    // Another report is read afresh.
    expect(jobProgressOf(reportWith({ resumes: 2 }))).toEqual({ resumes: 2 });
  });

  it('reads a malformed or missing progress as none, every time', () => {
    const malformed = reportWith({ resumes: -1 });
    expect(jobProgressOf(malformed)).toBeUndefined();
    expect(jobProgressOf(malformed)).toBeUndefined();
    expect(jobProgressOf({ taskId: 't1' })).toBeUndefined();
  });
});
