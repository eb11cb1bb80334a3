/** A followed task as the page stores it, for tests of the page's storage. */
import type { StoredTask } from '../../../src/store/page-store.ts';

export function storedTask(taskId: string, patch: Partial<StoredTask> = {}): StoredTask {
  return {
    taskId,
    toolName: 'slow_compute',
    arguments: { seconds: 3 },
    identity: 'learner',
    task: {
      taskId,
      status: 'working',
      createdAt: '2026-07-28T10:00:00.000Z',
      lastUpdatedAt: '2026-07-28T10:00:00.000Z',
      ttlMs: 60_000,
      pollIntervalMs: 500,
    },
    nextPollAt: 0,
    polls: 0,
    answeredKeys: [],
    unsentResponses: {},
    cancelRequested: false,
    followedAt: 1,
    ...patch,
  };
}
