/**
 * Interop: `@modelcontextprotocol/ext-tasks` (0.2.2), a Tasks requester nobody
 * here wrote, drives our server through the official SDK client and our HTTP
 * entry (see ext-tasks-link.ts for the wiring and its workarounds).
 */
import {
  createApplicationInputHandler,
  type TaskView,
} from '@modelcontextprotocol/ext-tasks/client';
import type { TaskId } from '@modelcontextprotocol/ext-tasks/core';
import { CallToolResultV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectExtTasks, type ExtTasksLink, type RawExchange } from './ext-tasks-link.ts';

const TEST_TIMEOUT_MS = 10_000;

let link: ExtTasksLink | undefined;
afterEach(async () => {
  await link?.close();
  link = undefined;
});

/** The exchanges ext-tasks sent for `method`, optionally only those about one task. */
function sent(l: ExtTasksLink, method: string, taskId?: string): RawExchange[] {
  return l.raw.filter(
    (e) =>
      e.request.method === method &&
      (taskId === undefined || e.request.params?.['taskId'] === taskId),
  );
}

/** The result object of an exchange; fails the test on an error response. */
function resultOf(exchange: RawExchange | undefined): Record<string, unknown> {
  expect(exchange?.response.kind).toBe('result');
  const result = exchange?.response.kind === 'result' ? exchange.response.result : undefined;
  if (typeof result !== 'object' || result === null || Array.isArray(result))
    throw new Error(`not a result object: ${JSON.stringify(exchange)}`);
  return { ...result };
}

/** The task id of an execution the server answered with a task (T7). */
function taskHandle(
  execution: { kind: 'immediate' } | { kind: 'task'; handle: { taskId: TaskId } },
): TaskId {
  if (execution.kind !== 'task') throw new Error('expected the server to answer with a task');
  return execution.handle.taskId;
}

describe('interop with @modelcontextprotocol/ext-tasks', () => {
  it(
    'T14/T15 interop: ext-tasks drives confirm_delete through input_required to completed',
    async () => {
      const asked: Array<{
        inputId: string | undefined;
        taskId: string | undefined;
        message: unknown;
      }> = [];
      link = await connectExtTasks({
        // Two lagging reads after the ack, so the answered key comes back in later polls (T15 allows it).
        staleReadsAfterUpdate: 2,
        onInputRequest: createApplicationInputHandler({
          elicitation: async (request, context) => {
            asked.push({
              inputId: context.inputId,
              taskId: context.taskId,
              message: request.params['message'],
            });
            return { action: 'accept', content: { confirm: true } };
          },
          sampling: async () => {
            throw new Error('confirm_delete asks for no sampling');
          },
          roots: async () => {
            throw new Error('confirm_delete asks for no roots');
          },
        }),
      });

      const execution = await link.session.callTool('confirm_delete', { filename: 'report.txt' });
      const taskId = taskHandle(execution);
      const { outcome } = await execution.settle();

      expect(outcome.status).toBe('completed');
      expect(outcome.status === 'completed' ? outcome.result.content : outcome).toEqual([
        { type: 'text', text: 'Deleted report.txt' },
      ]);

      // T14: several polls showed the same outstanding key...
      const pollsWithKey = sent(link, 'tasks/get', taskId).filter((e) => {
        const task = resultOf(e);
        const requests = task['inputRequests'];
        return (
          task['status'] === 'input_required' &&
          typeof requests === 'object' &&
          requests !== null &&
          'confirm' in requests
        );
      });
      expect(pollsWithKey.length).toBeGreaterThanOrEqual(3);
      expect(pollsWithKey.some((e) => !e.replayed)).toBe(true);
      // ...and the user was asked exactly once, for that key.
      expect(asked).toEqual([{ inputId: 'confirm', taskId, message: 'Delete report.txt?' }]);

      // T15, T19: one tasks/update carried the answer, routed by Mcp-Name, acked with an empty complete result.
      const updates = sent(link, 'tasks/update', taskId);
      expect(updates).toHaveLength(1);
      expect(updates[0]?.request.params).toMatchObject({
        taskId,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        _meta: {
          'io.modelcontextprotocol/clientCapabilities': {
            extensions: { 'io.modelcontextprotocol/tasks': {} },
          },
        },
      });
      expect(updates[0]?.headers['mcp-name']).toBe(taskId);
      expect(Object.keys(resultOf(updates[0])).sort()).toEqual(['_meta', 'resultType']);
      expect(resultOf(updates[0])['resultType']).toBe('complete');

      // The completion is the server's, not a local conclusion.
      const last = sent(link, 'tasks/get', taskId).at(-1);
      expect(last?.replayed).toBe(false);
      expect(resultOf(last)).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: 'Deleted report.txt' }] },
      });
      expect(link.errors).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'T17 interop: ext-tasks cancels slow_compute and sees cancelled',
    async () => {
      link = await connectExtTasks();
      const execution = await link.session.callTool('slow_compute', { seconds: 30 });
      const taskId = taskHandle(execution);

      await link.session.cancelTask(taskId);
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('cancelled');

      // T17: the ack is empty and sent with Mcp-Name (T19)...
      const cancels = sent(link, 'tasks/cancel', taskId);
      expect(cancels).toHaveLength(1);
      expect(cancels[0]?.headers['mcp-name']).toBe(taskId);
      expect(Object.keys(resultOf(cancels[0])).sort()).toEqual(['_meta', 'resultType']);
      expect(resultOf(cancels[0])['resultType']).toBe('complete');

      // ...and proves nothing about the work, which is why ext-tasks' local "cancelled" is
      // checked against the server: its own tasks/get must reach `cancelled` (30 s of work cannot complete).
      const controller = link.session.task(taskId);
      // Waits for the first status past `working` (failing the test if none comes), then checks it.
      const seen: TaskView = await vi.waitFor(
        async () => {
          const task = await controller.snapshot();
          if (task.status === 'working') throw new Error('the server still says working');
          return task;
        },
        { timeout: 3000, interval: 50 },
      );
      expect(seen.status).toBe('cancelled');
      expect(link.errors).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'T7/T10/T12 interop: ext-tasks follows export_report to a plain completed result, honouring pollIntervalMs',
    async () => {
      link = await connectExtTasks();
      const execution = await link.session.callTool('export_report', { stageMs: 50 });
      const taskId = taskHandle(execution);
      const { outcome } = await execution.settle();

      expect(outcome.status).toBe('completed');
      expect(outcome.status === 'completed' ? outcome.result : outcome).toMatchObject({
        content: [{ type: 'text', text: 'Exported Q3 report: 42 pages, 1.8 MB (report-q3.pdf)' }],
      });
      expect(outcome.task?.statusMessage).toBe('100%: done');

      // T7: the call came back as a flat task handle.
      const call = sent(link, 'tools/call')[0];
      const created = resultOf(call);
      expect(created).toMatchObject({ resultType: 'task', taskId, status: 'working' });
      const interval = created['pollIntervalMs'];
      expect(typeof interval).toBe('number');

      // T12: no poll came sooner than pollIntervalMs after the previous request (a few ms of timer slack).
      const polls = sent(link, 'tasks/get', taskId);
      expect(polls.length).toBeGreaterThanOrEqual(1);
      const times = [call, ...polls].map((e) => e?.sentAt ?? 0);
      for (let i = 1; i < times.length; i++)
        expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(Number(interval) - 10);
      expect(link.errors).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'T10, C4 interop: the inlined result is the CallToolResult with resultType "complete", which ext-tasks\' default parser accepts',
    async () => {
      link = await connectExtTasks();
      // No resultCodec: ext-tasks' default, CallToolResultV2Schema.
      const execution = await link.session.callTool('slow_compute', { seconds: 0 });
      const taskId = taskHandle(execution);
      const { outcome } = await execution.settle();

      const task = resultOf(sent(link, 'tasks/get', taskId).at(-1));
      expect(task['status']).toBe('completed');
      expect(CallToolResultV2Schema.safeParse(task['result']).success).toBe(true);
      expect(task['result']).toMatchObject({
        resultType: 'complete',
        content: [{ type: 'text', text: 'Computed in 0 s' }],
      });
      expect(outcome.status).toBe('completed');
      expect(link.errors).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
