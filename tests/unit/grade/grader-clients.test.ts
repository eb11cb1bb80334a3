/**
 * Real clients against the real grader (`startGrader`, over loopback HTTP):
 * `@modelcontextprotocol/ext-tasks` (a Tasks client nobody here wrote) runs
 * every grader tool, restarted across the long one; a deliberately wrong
 * client (polls too early, sends `notifications/cancelled`, omits
 * `Mcp-Name`, calls the tool again after its restart) fails exactly the
 * checks it breaks. Real time: the tools run for a few seconds each, side by side.
 */
import { createApplicationInputHandler } from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startGrader, type Grader } from '../../../src/grade/node-grader.ts';
import type { ClientReport } from '../../../src/grade/report-card.ts';
import { reportText } from '../../../src/grade/report-render.ts';
import { GraderTool } from '../../../src/grade/tool-names.ts';
import {
  ErrorCode,
  META,
  PROTOCOL_VERSION,
  TASKS_EXTENSION,
} from '../../../src/protocol/constants.ts';
import { isTerminal, TaskStatusSchema } from '../../../src/protocol/task.ts';
import { connectExtTasks, type ExtTasksLink } from '../server/ext-tasks-link.ts';

let grader: Grader;
beforeAll(async () => {
  grader = await startGrader({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await grader.close();
});

/** Waits until the grader has seen the client poll `taskId` (`tasks/get` with that `Mcp-Name`): the task is under way. */
async function polledOnce(taskId: string): Promise<void> {
  await vi.waitFor(
    () => {
      const polled = grader.exchanges.some(
        (e) => e.mcpMethod === 'tasks/get' && e.mcpName === taskId && e.answer !== undefined,
      );
      if (!polled) throw new Error(`no tasks/get of ${taskId} answered yet`);
    },
    { timeout: 15_000, interval: 50 },
  );
}

function statusesOf(report: ClientReport | undefined): Record<string, string> {
  return Object.fromEntries((report?.checks ?? []).map((c) => [c.id, c.status]));
}

const answerEverything = createApplicationInputHandler({
  elicitation: async () => ({ action: 'accept', content: { first: 'a', second: 'b' } }),
  sampling: async () => {
    throw new Error('the grader asks for no sampling');
  },
  roots: async () => {
    throw new Error('the grader asks for no roots');
  },
});

describe('the grader and real clients', () => {
  it('T1, T12, T13, T14, T17, T19: ext-tasks runs every grader tool, restarted across the long one, and is scored', async () => {
    const links: ExtTasksLink[] = [];
    const connect = async () => {
      const link = await connectExtTasks({
        endpoint: grader.url,
        identity: 'ext-tasks',
        onInputRequest: answerEverything,
      });
      links.push(link);
      return link;
    };
    try {
      const link = await connect();
      const settle = async (name: string) => (await link.session.callTool(name, {})).settle();
      const restart = (async () => {
        const execution = await link.session.callTool(GraderTool.restart, { seconds: 4 });
        if (execution.kind !== 'task') throw new Error('expected a task');
        const reference = execution.serializeReference();
        // The client goes away mid-task, once it has polled (detach: the remote task runs on), and a new one starts.
        await polledOnce(execution.handle.taskId);
        await execution.detach();
        const fresh = await connect();
        return (await fresh.session.resumeTask(reference)).settle();
      })();
      const cancelled = (async () => {
        const execution = await link.session.callTool(GraderTool.cancel, {});
        if (execution.kind !== 'task') throw new Error('expected a task');
        await polledOnce(execution.handle.taskId);
        await link.session.cancelTask(execution.handle.taskId);
        return execution.settle().catch((error: unknown) => ({ error }));
      })();
      const outcomes = await Promise.allSettled([
        settle(GraderTool.pollInterval),
        settle(GraderTool.twoInputs),
        settle(GraderTool.failed),
        settle(GraderTool.ttl),
        cancelled,
        restart,
      ]);
      const card = grader.report();
      const report = card.clients.find((c) => c.client === 'bearer ext-tasks');
      // What ext-tasks got, in the test log: the lead reports it.
      console.log(reportText({ ...card, clients: report ? [report] : [] }));
      console.log(
        outcomes.map((o) =>
          o.status === 'fulfilled' ? 'settled' : `rejected: ${String(o.reason)}`,
        ),
      );
      expect(report?.tools.every((t) => t.calls > 0)).toBe(true);
      expect(statusesOf(report)).toEqual({
        // Lost by the wiring, not by ext-tasks: the SDK Client's own server/discover and
        // tools/list go with the capabilities it was built with (ext-tasks-link.ts leaves the
        // extension out of them); ext-tasks adds it to every request it frames itself.
        'extension-declared': 'fail',
        'mcp-name': 'pass',
        'poll-interval': expect.stringMatching(/^(pass|fail)$/),
        'input-once': 'pass',
        'cancel-by-tasks-cancel': 'pass',
        'stops-at-terminal': 'pass',
        'resume-after-restart': 'pass',
      });
      const checkOf = (id: string) => report?.checks.find((c) => c.id === id);
      expect(
        checkOf('extension-declared')?.failures.every((f) =>
          /(server\/discover|tools\/list) did not declare/.test(f),
        ),
      ).toBe(true);
      // The one poll that may come early is the resumed session's first, which it sends at
      // once: a restarted ext-tasks knows the taskId, not when it last polled.
      const restartTask = report?.tools.find((t) => t.tool === GraderTool.restart)?.tasks[0];
      const early = checkOf('poll-interval')?.failures ?? [];
      expect(early.length).toBeLessThanOrEqual(1);
      for (const failure of early)
        expect(failure).toContain(`tasks/get of ${restartTask?.taskId.slice(0, 8)}`);
    } finally {
      for (const link of links) await link.close().catch(() => {});
    }
  }, 60_000);

  it('T12, T17, T19: a wrong client (polls too early, notifications/cancelled, no Mcp-Name, calls again after a restart) fails exactly those checks', async () => {
    const wrong = new WrongClient(grader.url, 'wrong-client');
    await Promise.all([
      wrong.run(GraderTool.pollInterval),
      wrong.run(GraderTool.failed),
      wrong.run(GraderTool.ttl),
      wrong.runInputs(),
      wrong.runCancel(),
      wrong.runRestart(),
    ]);
    const report = grader.report().clients.find((c) => c.client === 'bearer wrong-client');
    expect(statusesOf(report)).toEqual({
      'extension-declared': 'pass',
      'mcp-name': 'fail',
      'poll-interval': 'fail',
      'input-once': 'pass',
      'cancel-by-tasks-cancel': 'fail',
      'stops-at-terminal': 'pass',
      'resume-after-restart': 'fail',
    });
    expect(report?.fullMarks).toBe(false);
    expect(report?.passed).toBe(3);
  }, 60_000);
});

/** A hand-written client that gets four things wrong on purpose, and the rest right. */
class WrongClient {
  #id = 1;
  readonly #named = new Set<string>();

  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  async send(
    method: string,
    params: Record<string, unknown>,
    notification = false,
  ): Promise<{ result?: Record<string, unknown>; error?: { code: number } }> {
    const id = this.#id++;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${this.token}`,
      'mcp-protocol-version': PROTOCOL_VERSION,
      'mcp-method': method,
    };
    const taskId = typeof params['taskId'] === 'string' ? params['taskId'] : undefined;
    // Wrong: the first request about each task goes without Mcp-Name (T19).
    if (taskId !== undefined) {
      if (this.#named.has(taskId)) headers['mcp-name'] = taskId;
      else this.#named.add(taskId);
    } else if (typeof params['name'] === 'string') headers['mcp-name'] = params['name'];
    const meta = {
      [META.protocolVersion]: PROTOCOL_VERSION,
      [META.clientInfo]: { name: 'wrong-client', version: '1' },
      [META.clientCapabilities]: { extensions: { [TASKS_EXTENSION]: {} } },
    };
    const response = await fetch(this.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        ...(notification ? {} : { id }),
        method,
        params: { ...params, _meta: meta },
      }),
    });
    const text = await response.text();
    return text ? (JSON.parse(text) as { result?: Record<string, unknown> }) : {};
  }

  async call(tool: string, args: Record<string, unknown> = {}): Promise<string> {
    const answer = await this.send('tools/call', { name: tool, arguments: args });
    const taskId = answer.result?.['taskId'];
    if (typeof taskId !== 'string') throw new Error(`no task from ${tool}`);
    return taskId;
  }

  /** Wrong: every 100 ms whatever the server suggests (T12). Right: stops at the end (T9, T13). */
  async follow(
    taskId: string,
    onReport: (task: Record<string, unknown>) => Promise<void> = async () => {},
    maxPolls = Infinity,
  ): Promise<void> {
    for (let polls = 0; polls < maxPolls; polls++) {
      // The wrong client's own poll pace (the behaviour under test), not a wait for the test.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const answer = await this.send('tasks/get', { taskId });
      if (answer.error?.code === ErrorCode.InvalidParams) return;
      const status = TaskStatusSchema.safeParse(answer.result?.['status']);
      if (!status.success) continue;
      if (isTerminal(status.data)) return;
      await onReport(answer.result ?? {});
    }
  }

  async run(tool: string): Promise<void> {
    await this.follow(await this.call(tool));
  }

  /** Right: each key answered once, one at a time. */
  async runInputs(): Promise<void> {
    const taskId = await this.call(GraderTool.twoInputs);
    const answered = new Set<string>();
    await this.follow(taskId, async (task) => {
      const requests = task['inputRequests'];
      if (typeof requests !== 'object' || requests === null) return;
      const key = Object.keys(requests).find((k) => !answered.has(k));
      if (key === undefined) return;
      answered.add(key);
      await this.send('tasks/update', {
        taskId,
        inputResponses: { [key]: { action: 'accept', content: { [key]: 'x' } } },
      });
    });
  }

  /** Wrong: cancels with notifications/cancelled naming the tools/call (T17). */
  async runCancel(): Promise<void> {
    const callId = this.#id;
    const taskId = await this.call(GraderTool.cancel);
    await this.send('notifications/cancelled', { requestId: callId, reason: 'user' }, true);
    await this.follow(taskId);
  }

  /** Wrong: "restarts" after two polls, forgets the taskId and calls the tool again (T12). */
  async runRestart(): Promise<void> {
    await this.follow(await this.call(GraderTool.restart, { seconds: 3 }), undefined, 2);
    await this.follow(await this.call(GraderTool.restart, { seconds: 3 }));
  }
}
