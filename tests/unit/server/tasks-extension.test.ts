/** Tasks extension rules (T*) and misconceptions (M*) against the real server over the in-memory pair. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, envelope, pollUntil, terminal, type Harness } from '../helpers/harness.ts';
import { CreateTaskResultSchema, DetailedTaskSchema } from '../../../src/protocol/task.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

const call = (name: string, args: Record<string, unknown> = {}, tasks = true) =>
  h.client.request('tools/call', { name, arguments: args }, { tasks });
const get = (taskId: string) => h.client.request('tasks/get', { taskId }, { tasks: true });

async function startTask(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const handle = CreateTaskResultSchema.parse(await call(name, args));
  return handle.taskId;
}

describe('negotiation', () => {
  it('T1, T3, M4: without the extension a task-capable tool answers synchronously, never with a task', async () => {
    const result = await call('slow_compute', { seconds: 0 }, false);
    expect(result['resultType']).toBe('complete');
    expect(result).not.toHaveProperty('taskId');
    expect(result['content']).toEqual([{ type: 'text', text: 'Computed in 0 s' }]);
  });

  it('T3: a tool that cannot run synchronously answers -32021 naming the extension', async () => {
    await expect(call('failing_job', {}, false)).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
  });

  it('T2, M2: tools/list carries no per-tool task flag; the same tool is sync or task per request', async () => {
    const { tools } = (await h.client.request('tools/list', {}, { tasks: true })) as {
      tools: Array<Record<string, unknown>>;
    };
    expect(tools.map((t) => t['name'])).toEqual(
      expect.arrayContaining([
        'greet',
        'slow_compute',
        'failing_job',
        'protocol_error_job',
        'confirm_delete',
        'multi_input',
        'test_tool_with_task',
      ]),
    );
    for (const tool of tools) {
      expect(tool).not.toHaveProperty('execution');
      expect(JSON.stringify(tool)).not.toContain('taskSupport');
    }
    expect((await call('slow_compute', { seconds: 0 }, true))['resultType']).toBe('task');
    expect((await call('slow_compute', { seconds: 0 }, false))['resultType']).toBe('complete');
  });

  it('T4: tasks/get, tasks/update and tasks/cancel without the extension get -32021, even for an unknown id', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      await expect(
        h.client.request(method, { taskId: 'gate-test', inputResponses: {} }, { tasks: false }),
      ).rejects.toMatchObject({ code: -32021 });
    }
  });

  it('T21, M1: tasks/result and tasks/list do not exist (-32601)', async () => {
    for (const method of ['tasks/result', 'tasks/list']) {
      const reply = await h.raw({
        jsonrpc: '2.0',
        id: 1,
        method,
        params: { taskId: 'x', _meta: envelope(true) },
      });
      expect(reply['error']).toMatchObject({ code: -32601 });
    }
  });
});

describe('shapes', () => {
  it('T6, T7: CreateTaskResult is flat: resultType "task" plus the Task fields, nothing nested', async () => {
    const result = await call('slow_compute', { seconds: 1 });
    expect(CreateTaskResultSchema.safeParse(result).success).toBe(true);
    expect(result).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 300_000,
      pollIntervalMs: 500,
    });
    for (const key of ['task', 'content', 'result', 'error', 'inputRequests', 'requestState'])
      expect(result).not.toHaveProperty(key);
  });

  it("T6, T12: the suggested pollIntervalMs is the server's, here chosen per call from slow_compute's arguments", async () => {
    expect(await call('slow_compute', { seconds: 1, pollIntervalMs: 250 })).toMatchObject({
      resultType: 'task',
      pollIntervalMs: 250,
    });
    const taskId = await startTask('slow_compute', { seconds: 1, pollIntervalMs: 2000 });
    expect(await get(taskId)).toMatchObject({ pollIntervalMs: 2000 });
    expect((await call('slow_compute', { seconds: 1, pollIntervalMs: 10 }))['isError']).toBe(true);
  });

  it('T8: the task is stored before the handle is sent: tasks/get resolves at once', async () => {
    const taskId = await startTask('slow_compute', { seconds: 5 });
    const task = await get(taskId);
    expect(task).toMatchObject({ taskId, status: 'working', resultType: 'complete' });
  });

  it('T10: a completed task inlines the full CallToolResult; a working one carries no result', async () => {
    const taskId = await startTask('slow_compute', { seconds: 0.2 });
    const working = await get(taskId);
    expect(working).not.toHaveProperty('result');
    const done = await pollUntil(h.client, taskId, terminal);
    expect(DetailedTaskSchema.parse(done)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Computed in 0.2 s' }] },
    });
  });

  it('T11: a tool error ends completed with isError; a protocol error ends failed with error and no result', async () => {
    const toolError = await pollUntil(h.client, await startTask('failing_job'), terminal);
    expect(toolError).toMatchObject({ status: 'completed', result: { isError: true } });
    const protocolError = await pollUntil(
      h.client,
      await startTask('protocol_error_job'),
      terminal,
    );
    expect(protocolError).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(protocolError).not.toHaveProperty('result');
  });
});

describe('input during a task', () => {
  it('T14: every poll repeats all outstanding requests under the same keys', async () => {
    const taskId = await startTask('multi_input');
    const first = await pollUntil(h.client, taskId, (t) => t['status'] === 'input_required');
    const second = await get(taskId);
    expect(Object.keys(first['inputRequests'] as object).sort()).toEqual(['color', 'name']);
    expect(second['inputRequests']).toEqual(first['inputRequests']);
    expect((first['inputRequests'] as Record<string, { method: string }>)['name']?.method).toBe(
      'elicitation/create',
    );
  });

  it('T15: a partial answer keeps the task input_required; unknown keys are ignored; the ack is empty', async () => {
    const taskId = await startTask('multi_input');
    await pollUntil(h.client, taskId, (t) => t['status'] === 'input_required');
    const ack = await h.client.request(
      'tasks/update',
      {
        taskId,
        inputResponses: {
          name: { action: 'accept', content: { name: 'Ada' } },
          'unknown-key': { ignored: true },
        },
      },
      { tasks: true },
    );
    expect(Object.keys(ack).filter((k) => k !== '_meta')).toEqual(['resultType']);
    const partial = await get(taskId);
    expect(partial['status']).toBe('input_required');
    // Only what still needs an answer is outstanding (T14).
    expect(Object.keys(partial['inputRequests'] as object)).toEqual(['color']);
    await h.client.request(
      'tasks/update',
      { taskId, inputResponses: { color: { action: 'accept', content: { color: 'teal' } } } },
      { tasks: true },
    );
    const done = await pollUntil(h.client, taskId, terminal);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'name=Ada, color=teal' }] },
    });
  });

  it('T15: an answer for an already answered key is ignored', async () => {
    const taskId = await startTask('confirm_delete', { filename: 'a.txt' });
    await pollUntil(h.client, taskId, (t) => t['status'] === 'input_required');
    await h.client.request(
      'tasks/update',
      { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: false } } } },
      { tasks: true },
    );
    await h.client.request(
      'tasks/update',
      { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
      { tasks: true },
    );
    const done = await pollUntil(h.client, taskId, terminal);
    expect(done['result']).toMatchObject({
      content: [
        {
          text: 'Kept a.txt: deletion was not confirmed ("Delete it" was left unticked in the accepted form)',
        },
      ],
    });
  });

  it('T14: deploy_service accepted with "Approve roll-out" unticked says so instead of a bare "declined"', async () => {
    const taskId = await startTask('deploy_service', { service: 'cart' });
    await pollUntil(h.client, taskId, (t) => t['status'] === 'input_required');
    await h.client.request(
      'tasks/update',
      {
        taskId,
        inputResponses: { approve_rollout: { action: 'accept', content: { approve: false } } },
      },
      { tasks: true },
    );
    const done = await pollUntil(h.client, taskId, terminal);
    expect(done['result']).toMatchObject({
      content: [
        {
          text: 'Roll-out of cart to production not approved ("Approve roll-out" was left unticked in the accepted form); canary rolled back.',
        },
      ],
    });
  });

  it('T16: input needed before the task exists uses input_required on tools/call, then the retry gets a task', async () => {
    const first = await call('test_tool_with_task');
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_name: { method: 'elicitation/create' } },
    });
    expect(first).not.toHaveProperty('taskId');
    const second = await h.client.request(
      'tools/call',
      {
        name: 'test_tool_with_task',
        arguments: {},
        inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
      },
      { tasks: true },
    );
    expect(second['resultType']).toBe('task');
    const done = await pollUntil(h.client, String(second['taskId']), terminal);
    expect(JSON.stringify(done['result'])).toContain('Alice');
  });
});

describe('cancellation and lifecycle', () => {
  it('T17: tasks/cancel gets an empty ack and a cooperative job ends cancelled', async () => {
    const taskId = await startTask('slow_compute', { seconds: 60 });
    const ack = await h.client.request('tasks/cancel', { taskId }, { tasks: true });
    expect(Object.keys(ack).filter((k) => k !== '_meta')).toEqual(['resultType']);
    expect(ack['resultType']).toBe('complete');
    expect(await pollUntil(h.client, taskId, terminal)).toMatchObject({ status: 'cancelled' });
  });

  it('T17: cancel is a request: a job that ignores it still ends completed', async () => {
    const taskId = await startTask('stubborn_migration', { rows: 10 });
    await h.client.request('tasks/cancel', { taskId }, { tasks: true });
    const done = await pollUntil(h.client, taskId, terminal);
    expect(done).toMatchObject({ status: 'completed' });
    expect(JSON.stringify(done['result'])).toContain('even though cancellation was requested');
  });

  it('T9, T12: cancel after completion keeps completed, and the cancel is still acknowledged', async () => {
    const taskId = await startTask('slow_compute', { seconds: 0 });
    await pollUntil(h.client, taskId, terminal);
    const ack = await h.client.request('tasks/cancel', { taskId }, { tasks: true });
    expect(ack['resultType']).toBe('complete');
    expect(await get(taskId)).toMatchObject({ status: 'completed' });
  });

  it('T17: a cancel while input_required ends the task cancelled', async () => {
    const taskId = await startTask('confirm_delete');
    await pollUntil(h.client, taskId, (t) => t['status'] === 'input_required');
    await h.client.request('tasks/cancel', { taskId }, { tasks: true });
    expect(await pollUntil(h.client, taskId, terminal)).toMatchObject({ status: 'cancelled' });
  });
});

describe('identity and ids', () => {
  it('T20, M5: another identity gets exactly the error of a missing task; the owner on a new connection succeeds', async () => {
    const taskId = await startTask('slow_compute', { seconds: 5 });
    const bob = await h.connect('bob');
    const stranger = await bob
      .request('tasks/get', { taskId }, { tasks: true })
      .catch((e: unknown) => e);
    const missing = await bob
      .request('tasks/get', { taskId: 'AAAAAAAAAAAAAAAAAAAAAA' }, { tasks: true })
      .catch((e: unknown) => e);
    expect(stranger).toMatchObject({ code: -32602 });
    expect((stranger as { message: string }).message.replace(taskId, 'ID')).toBe(
      (missing as { message: string }).message.replace('AAAAAAAAAAAAAAAAAAAAAA', 'ID'),
    );
    await expect(bob.request('tasks/cancel', { taskId }, { tasks: true })).rejects.toMatchObject({
      code: -32602,
    });
    const aliceAgain = await h.connect('alice');
    expect(await aliceAgain.request('tasks/get', { taskId }, { tasks: true })).toMatchObject({
      taskId,
      status: 'working',
    });
  });

  it('T13: an unknown id gets -32602 on get, update and cancel', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      await expect(
        h.client.request(method, { taskId: 'no-such-task', inputResponses: {} }, { tasks: true }),
      ).rejects.toMatchObject({ code: -32602 });
    }
  });
});

describe('push', () => {
  it('T18, C9: subscriptions/listen acknowledges the taskIds, then pushes what tasks/get would return', async () => {
    const taskId = await startTask('slow_compute', { seconds: 0.3 });
    const listenId = 'listen-1';
    const reply = h.raw({
      jsonrpc: '2.0',
      id: listenId,
      method: 'subscriptions/listen',
      params: { notifications: { taskIds: [taskId, 'not-mine'] }, _meta: envelope(true) },
    });
    const ack = await reply;
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: {
        notifications: { taskIds: [taskId] },
        _meta: { 'io.modelcontextprotocol/subscriptionId': listenId },
      },
    });
    await pollUntil(h.client, taskId, terminal);
  });

  it('T18: a client without the extension asking for task notifications gets -32021', async () => {
    const reply = await h.raw({
      jsonrpc: '2.0',
      id: 9,
      method: 'subscriptions/listen',
      params: { notifications: { taskIds: ['x'] }, _meta: envelope(false) },
    });
    expect(reply['error']).toMatchObject({ code: -32021 });
  });
});
