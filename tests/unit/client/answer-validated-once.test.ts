/**
 * C7, T10: a `tasks/get` answer on the page's real path (the session's
 * client, its clean FaultyNetwork, the worker port, the wire log's
 * annotator, the task news) is validated in full once, as a DetailedTask
 * (getTask), and its envelope is classified once, without the result
 * schema's copy of it (jsonrpc.ts `wellFormedResult`).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getTask } from '../../../src/client/task-lookup.ts';
import { JsonRpcResultSchema } from '../../../src/protocol/jsonrpc.ts';
import { DetailedTaskSchema } from '../../../src/protocol/task.ts';
import { FAKE_TIMERS, RealStack } from '../helpers/real-stack.ts';

let stack: RealStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("a tasks/get answer on the page's path", () => {
  it('C7, T10: is validated once, as a DetailedTask, however many layers read it', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    vi.setSystemTime(Date.parse('2026-07-28T10:00:00Z'));
    stack = new RealStack('memory', 1);
    await stack.open();
    const { session } = stack.page;
    const created = await session.request(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 600 } },
      { declare: true },
    );
    const taskId = String(created['taskId']);
    await stack.settle();
    const detailed = vi.spyOn(DetailedTaskSchema, 'safeParse');
    const envelope = vi.spyOn(JsonRpcResultSchema, 'safeParse');
    const answers = 5;
    for (let i = 0; i < answers; i++) {
      const polled = getTask(session.client, taskId);
      await stack.settle();
      expect(await polled).toMatchObject({ taskId, status: 'working' });
    }
    expect(detailed).toHaveBeenCalledTimes(answers);
    expect(envelope).not.toHaveBeenCalled();
  });
});
