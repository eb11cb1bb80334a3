/**
 * The task machine's final states as one table: what the client concluded
 * when it stopped following a task. Three are a final status seen (T9), two
 * are the client giving up (T13), one is the user forgetting the task.
 * None is a status: the task's five are `taskLifecycleMachine`'s.
 */
import { assign } from 'xstate';
import type { TaskOutcome } from './task-machine-context.ts';

/**
 * The machine's final states: the client's conclusions, never a sixth
 * status. Each `label` is what the chart draws; `outcome` is what
 * `context.outcome` records (none when the user stopped following: no
 * outcome is known, and T17 allows forgetting).
 */
export const CONCLUSIONS = {
  completed: { label: 'stopped: saw completed', outcome: 'completed' },
  failed: { label: 'stopped: saw failed', outcome: 'failed' },
  cancelled: { label: 'stopped: saw cancelled', outcome: 'cancelled' },
  expired: { label: 'gave up: TTL passed', outcome: 'expired' },
  gone: { label: 'gave up: server answered -32602', outcome: 'gone' },
  forgotten: { label: 'stopped following', outcome: undefined },
} as const satisfies Record<string, { label: string; outcome: TaskOutcome | undefined }>;

/** One final state per conclusion, keyed as the table is. */
export function conclusions<
  T extends Record<string, { label: string; outcome: TaskOutcome | undefined }>,
>(table: T) {
  return Object.fromEntries(
    Object.entries(table).map(([key, { label, outcome }]) => [
      key,
      {
        type: 'final' as const,
        meta: { label },
        ...(outcome !== undefined ? { entry: assign({ outcome }) } : {}),
      },
    ]),
  ) as { [K in keyof T]: { type: 'final'; meta: { label: string } } };
}
