/**
 * M6 on the real server: `resultType: "input_required"` (the core
 * multi-round-trip interim result on the `tools/call` itself, before any
 * task exists) is not `status: "input_required"` (a task's status, answered
 * with `tasks/update`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, pollUntil, terminal, type Harness } from '../helpers/harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

const tasksStored = async () => (await h.server.store.all()).length;

describe('M6: two kinds of input_required', () => {
  it('M6, T16: resultType "input_required" answers the tools/call itself; no task exists until the retry carries inputResponses', async () => {
    const first = await h.client.request(
      'tools/call',
      { name: 'test_tool_with_task', arguments: {} },
      { tasks: true },
    );
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_name: { method: 'elicitation/create' } },
    });
    // No handle, no status: there is nothing to tasks/get, and the server stored nothing.
    expect(first).not.toHaveProperty('taskId');
    expect(first).not.toHaveProperty('status');
    expect(await tasksStored()).toBe(0);

    const retry = await h.client.request(
      'tools/call',
      {
        name: 'test_tool_with_task',
        arguments: {},
        inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
      },
      { tasks: true },
    );
    expect(retry).toMatchObject({ resultType: 'task', status: 'working' });
    expect(await tasksStored()).toBe(1);
    const done = await pollUntil(h.client, String(retry['taskId']), terminal);
    expect(JSON.stringify(done['result'])).toContain('Ada');
  });

  it('M6, T14, T15: status "input_required" belongs to a task that already exists, and is answered with tasks/update, not by calling again', async () => {
    const handle = await h.client.request(
      'tools/call',
      { name: 'confirm_delete', arguments: { filename: 'a.txt' } },
      { tasks: true },
    );
    // The tools/call itself got a task at once, not an interim result.
    expect(handle).toMatchObject({ resultType: 'task' });
    expect(handle).not.toHaveProperty('inputRequests');
    const taskId = String(handle['taskId']);
    const waiting = await pollUntil(h.client, taskId, (t) => t['status'] === 'input_required');
    // tasks/get's own resultType stays "complete": the status is a field of the task.
    expect(waiting).toMatchObject({
      resultType: 'complete',
      status: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create' } },
    });

    // Re-sending the call with inputResponses does not answer the task: it starts another one.
    const again = await h.client.request(
      'tools/call',
      {
        name: 'confirm_delete',
        arguments: { filename: 'a.txt' },
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      },
      { tasks: true },
    );
    expect(again).toMatchObject({ resultType: 'task' });
    expect(again['taskId']).not.toBe(taskId);
    expect(await h.client.request('tasks/get', { taskId }, { tasks: true })).toMatchObject({
      status: 'input_required',
    });

    // tasks/update is what answers it.
    await h.client.request(
      'tasks/update',
      { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
      { tasks: true },
    );
    expect(await pollUntil(h.client, taskId, terminal)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Deleted a.txt' }] },
    });
  });
});
