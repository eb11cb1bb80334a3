import { describe, expect, it } from 'vitest';
import { TASK_STATUSES, TERMINAL_STATUSES } from '../../../src/protocol/task.ts';
import { lifecycleStatuses } from '../../../src/ui/statechart/lifecycle-legend.ts';

describe('the first screen lists the lifecycle from its machine', () => {
  it('T6, T9: exactly the five statuses, the terminal ones final, each with a meaning', () => {
    const listed = lifecycleStatuses();
    expect(listed.map((s) => s.status).sort()).toEqual([...TASK_STATUSES].sort());
    expect(
      listed
        .filter((s) => s.final)
        .map((s) => s.status)
        .sort(),
    ).toEqual([...TERMINAL_STATUSES].sort());
    for (const status of listed) expect(status.meaning).not.toBe('');
  });
});
