/** The page's tools/call classification, against the real server over the in-memory pair. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callTool } from '../../../src/client/tool-call.ts';
import { listTools } from '../../../src/client/tool-catalog.ts';
import { clientAnswering } from '../helpers/fake-link.ts';
import { createHarness, type Harness } from '../helpers/harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

describe('callTool', () => {
  it('T7: a declared call to a task tool is classified as a task handle', async () => {
    const outcome = await callTool(h.client, {
      name: 'slow_compute',
      arguments: { seconds: 0 },
      tasks: true,
    });
    expect(outcome.kind).toBe('task');
    if (outcome.kind === 'task') expect(outcome.task.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('T3, M4: the same call undeclared is an ordinary result', async () => {
    const outcome = await callTool(h.client, {
      name: 'slow_compute',
      arguments: { seconds: 0 },
      tasks: false,
    });
    expect(outcome).toEqual({
      kind: 'result',
      result: expect.objectContaining({ content: [{ type: 'text', text: 'Computed in 0 s' }] }),
    });
  });

  it('T16: input before the task is classified as input_required, and the retry with answers becomes a task', async () => {
    const first = await callTool(h.client, {
      name: 'test_tool_with_task',
      arguments: {},
      tasks: true,
    });
    expect(first.kind).toBe('input_required');
    if (first.kind !== 'input_required') return;
    expect(Object.keys(first.inputRequests)).toEqual(['user_name']);
    const second = await callTool(h.client, {
      name: 'test_tool_with_task',
      arguments: {},
      tasks: true,
      inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(second.kind).toBe('task');
  });

  it('C4: a tools/call result with no resultType (an older server) is read as "complete"; an unknown one is refused', async () => {
    // This server always sends resultType; an older one answers as the test does here.
    let answer: Record<string, unknown> = { content: [{ type: 'text', text: 'old server' }] };
    const client = await clientAnswering(() => answer);
    await expect(
      callTool(client, { name: 'greet', arguments: { name: 'Ada' }, tasks: true }),
    ).resolves.toEqual({
      kind: 'result',
      result: expect.objectContaining({ content: [{ type: 'text', text: 'old server' }] }),
    });
    answer = { resultType: 'partial', content: [] };
    await expect(
      callTool(client, { name: 'greet', arguments: { name: 'Ada' }, tasks: true }),
    ).rejects.toMatchObject({ kind: 'invalid-response' });
    client.close();
  });

  it('T3: a JSON-RPC error is passed on with its code', async () => {
    await expect(
      callTool(h.client, { name: 'failing_job', arguments: {}, tasks: false }),
    ).rejects.toMatchObject({ kind: 'rpc', code: -32021 });
  });
});

describe('listTools', () => {
  it('M2: lists every tool with an object inputSchema and no task flag', async () => {
    const tools = await listTools(h.client, { tasks: true });
    expect(tools.length).toBeGreaterThanOrEqual(10);
    for (const tool of tools) {
      expect(tool.inputSchema).toMatchObject({ type: 'object' });
      expect(tool).not.toHaveProperty('execution');
    }
  });
});
