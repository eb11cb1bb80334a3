/**
 * M8 and M9 on the real server: creation is a receipt, not an outcome (the
 * outcome is read from the final `tasks/get`), and a task is one operation
 * started by one `tools/call`, never shared by two.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, pollUntil, terminal, type Harness } from '../helpers/harness.ts';
import { CreateTaskResultSchema } from '../../../src/protocol/task.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

const call = async (name: string, args: Record<string, unknown> = {}) =>
  h.client.request('tools/call', { name, arguments: args }, { tasks: true });

/** A handle's keys, minus the values that differ per task. */
const shapeOf = (handle: Record<string, unknown>) => Object.keys(handle).sort();

describe('M8: creation is not success', () => {
  it('M8, T10, T11: the handles of a tool error, a protocol error and a success look alike; only the final tasks/get tells them apart', async () => {
    const ok = await call('slow_compute', { seconds: 0.2 });
    const toolError = await call('failing_job');
    const protocolError = await call('protocol_error_job');
    for (const handle of [ok, toolError, protocolError]) {
      expect(CreateTaskResultSchema.parse(handle)).toMatchObject({
        resultType: 'task',
        status: 'working',
      });
      for (const key of ['result', 'error', 'isError', 'content'])
        expect(handle).not.toHaveProperty(key);
    }
    expect(shapeOf(toolError)).toEqual(shapeOf(protocolError));

    const final = async (handle: Record<string, unknown>) =>
      pollUntil(h.client, String(handle['taskId']), terminal);
    expect(await final(ok)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Computed in 0.2 s' }] },
    });
    const failedTool = await final(toolError);
    expect(failedTool).toMatchObject({ status: 'completed', result: { isError: true } });
    expect(failedTool).not.toHaveProperty('error');
    const failed = await final(protocolError);
    // T10: the failed task says why in its statusMessage, as well as in error.
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603 },
      statusMessage: expect.stringMatching(/^Failed: /),
    });
    expect(failed).not.toHaveProperty('result');
  });
});

describe('M9: a task is one tools/call', () => {
  it("M9: two identical calls at once are two tasks, and each task holds exactly its own call's result", async () => {
    const [a, b] = await Promise.all([
      call('slow_compute', { seconds: 0.2, label: 'a' }),
      call('slow_compute', { seconds: 0.2, label: 'b' }),
    ]);
    expect(a!['taskId']).not.toBe(b!['taskId']);
    const doneA = await pollUntil(h.client, String(a!['taskId']), terminal);
    const doneB = await pollUntil(h.client, String(b!['taskId']), terminal);
    expect(doneA['result']).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Computed a in 0.2 s' }],
    });
    expect(doneB['result']).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Computed b in 0.2 s' }],
    });
  });

  it('M9, T2: a tools/call cannot join an existing task: naming its taskId starts a new one and leaves the first as it was', async () => {
    const first = await call('slow_compute', { seconds: 0.2, label: 'first' });
    const taskId = String(first['taskId']);
    const finished = await pollUntil(h.client, taskId, terminal);
    const second = await h.client.request(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0.2, label: 'second' }, taskId },
      { tasks: true },
    );
    expect(second).toMatchObject({ resultType: 'task' });
    expect(second['taskId']).not.toBe(taskId);
    await pollUntil(h.client, String(second['taskId']), terminal);
    // The first task still holds its one call's result, unchanged.
    expect(await h.client.request('tasks/get', { taskId }, { tasks: true })).toEqual(finished);
    expect(await h.server.store.all()).toHaveLength(2);
  });
});
