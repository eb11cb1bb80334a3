/**
 * The Results list's calls (`ToolCalls`): a burst of calls is appended, each
 * answer replaces its one record, and what the list draws is read from the
 * newest end: the newest few, then any older call still asking for input
 * before a task exists (T16), each with its place among all calls.
 */
import { describe, expect, it } from 'vitest';
import type { ToolCallOutcome } from '../../../src/client/tool-call.ts';
import { CreateTaskResultSchema } from '../../../src/protocol/task.ts';
import { ToolCalls } from '../../../src/ui/state/tool-calls.svelte.ts';

/** A callTool whose answers the test gives, one per call, in any order. */
function answerable() {
  const waiting: ((outcome: ToolCallOutcome) => void)[] = [];
  const callTool = (): Promise<ToolCallOutcome> =>
    new Promise<ToolCallOutcome>((resolve) => waiting.push(resolve));
  return { callTool, waiting };
}

const taskAnswer = (taskId: string): ToolCallOutcome => ({
  kind: 'task',
  task: CreateTaskResultSchema.parse({
    resultType: 'task',
    taskId,
    status: 'working',
    createdAt: '2026-07-28T00:00:00Z',
    lastUpdatedAt: '2026-07-28T00:00:00Z',
    ttlMs: 60_000,
  }),
});

const askAnswer: ToolCallOutcome = {
  kind: 'input_required',
  inputRequests: {
    name: {
      method: 'elicitation/create',
      params: { message: 'Your name?', requestedSchema: { type: 'object', properties: {} } },
    },
  },
  requestState: 'state-1',
};

describe('ToolCalls', () => {
  it('C4: a burst of calls lists every one, newest first, and the window holds only the newest, placed among all', async () => {
    const { callTool, waiting } = answerable();
    const calls = new ToolCalls(callTool, () => 0);
    const outcomes = Array.from({ length: 50 }, () => calls.call('slow_compute', {}, true));
    expect(calls.count).toBe(50);
    waiting.forEach((resolve, i) => resolve(taskAnswer(`task-${i}`)));
    const ended = await Promise.all(outcomes);
    expect(ended[7]).toEqual({ kind: 'task', taskId: 'task-7' });

    const window = calls.window(5);
    expect(window.map((p) => p.position)).toEqual([1, 2, 3, 4, 5]);
    expect(window.map((p) => p.record.id)).toEqual([50, 49, 48, 47, 46]);
    expect(window[0]!.record.outcome).toEqual({ kind: 'task', taskId: 'task-49' });
    expect(calls.records.map((r) => r.id)).toEqual(Array.from({ length: 50 }, (_, i) => 50 - i));
    expect(calls.window(80)).toHaveLength(50);
  });

  it('T16: an older call asking for input before a task exists is drawn after the newest, in its place, until answered', async () => {
    const { callTool, waiting } = answerable();
    const calls = new ToolCalls(callTool, () => 0);
    const asking = calls.call('ask_name', {}, true);
    for (let i = 0; i < 30; i++) void calls.call('slow_compute', {}, true);
    waiting[0]!(askAnswer);
    expect((await asking).kind).toBe('input');

    const window = calls.window(10);
    expect(window).toHaveLength(11);
    expect(window.at(-1)).toMatchObject({ position: 31, record: { toolName: 'ask_name' } });

    // Answered: it retries (a second round), is no longer asking, and drops out of the window.
    calls.answer(1, 'name', { action: 'accept', content: {} });
    expect(calls.window(10)).toHaveLength(10);
    expect(calls.records.at(-1)).toMatchObject({ rounds: 2, outcome: { kind: 'pending' } });
  });

  it('C4: a dismissed call leaves the list and the others keep their order; an answer arriving after it changes nothing', async () => {
    const { callTool, waiting } = answerable();
    const calls = new ToolCalls(callTool, () => 0);
    for (let i = 0; i < 4; i++) void calls.call('slow_compute', {}, true);
    calls.dismiss(2);
    expect(calls.records.map((r) => r.id)).toEqual([4, 3, 1]);
    expect(calls.window(2).map((p) => [p.record.id, p.position])).toEqual([
      [4, 1],
      [3, 2],
    ]);
    waiting[1]!(taskAnswer('gone'));
    waiting[2]!(taskAnswer('kept'));
    await expect.poll(() => calls.records[1]!.outcome).toEqual({ kind: 'task', taskId: 'kept' });
    expect(calls.count).toBe(3);
    calls.clear();
    expect(calls.count).toBe(0);
    expect(calls.window(20)).toEqual([]);
  });
});
