/**
 * The worker's port host answers a `tasks/get` that passes the SDK's ladder
 * through direct-tasks-get.ts, as the Node host does, without the SDK's
 * per-request server. Proven against the SDK's own answer: two ports serve
 * one server, one with the direct path and one without, and every message,
 * valid or broken, must get the same reply on both. The checks the direct
 * path skips run once: a broken envelope, id or param still reaches the
 * SDK's entry and gets its exact refusal.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requestMeta } from '../../../src/protocol/envelope.ts';
import {
  createPlaygroundServer,
  type PlaygroundServer,
} from '../../../src/server/playground-server.ts';
import { servePort } from '../../../src/server/port-host.ts';
import { fcParameters } from '../helpers/fc-run.ts';
import { comparableRequest, expectsNoAnswer, prepareCase } from '../helpers/fuzz-inputs.ts';
import { everyStoredShape } from '../helpers/stored-shapes.ts';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const CLIENT = { name: 'port-direct-get-test', version: '1' };

let server: PlaygroundServer;
let nextId = 1;
let taskIds: string[] = [];

/** One reply to `message` on a fresh port of `server`, served as `identity`. */
async function reply(message: unknown, identity: string, direct: boolean): Promise<unknown> {
  const channel = new MessageChannel();
  const host = servePort(server, channel.port1, identity, { directTasksGet: direct });
  try {
    return await new Promise((resolve) => {
      channel.port2.addEventListener('message', (event) => resolve(event.data), { once: true });
      channel.port2.start();
      channel.port2.postMessage(message);
    });
  } finally {
    host.close();
    channel.port2.close();
  }
}

/** Sends `message` down both paths; the replies must be equal. */
async function expectSameReply(message: unknown, identity: string): Promise<unknown> {
  const sdk = await reply(message, identity, false);
  const ours = await reply(message, identity, true);
  expect(ours, JSON.stringify(message).slice(0, 300)).toEqual(sdk);
  return ours;
}

function tasksGet(taskId: unknown, tasks = true): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tasks/get',
    params: { taskId, _meta: requestMeta(CLIENT, tasks ? TASKS : {}) },
  };
}

beforeAll(async () => {
  server = createPlaygroundServer({ sweepIntervalMs: 0, adoptIntervalMs: 0 });
  const records = await everyStoredShape('alice');
  for (const record of records) await server.store.create(record);
  taskIds = records.map((r) => r.taskId);
});
afterAll(() => server.close());

describe("the worker's tasks/get without the per-request SDK server", () => {
  it('T10, T20, C4, C6: every stored shape, every caller, with and without the extension: the SDK reply, without the SDK entry', async () => {
    const sdkEntry = vi.spyOn(server.http, 'fetch');
    try {
      for (const taskId of [...taskIds, 'made-up-task-id'])
        for (const identity of ['alice', 'mallory'])
          for (const tasks of [true, false]) {
            const message = tasksGet(taskId, tasks);
            sdkEntry.mockClear();
            const sdk = await reply(message, identity, false);
            expect(sdkEntry).toHaveBeenCalledTimes(1);
            sdkEntry.mockClear();
            const ours = await reply(message, identity, true);
            // The direct path answered it: the SDK's entry never saw the request.
            expect(sdkEntry).not.toHaveBeenCalled();
            expect(ours, `${taskId} as ${identity}, tasks ${tasks}`).toEqual(sdk);
          }
    } finally {
      sdkEntry.mockRestore();
    }
    // And the replies are the real ones, not two equal mistakes.
    expect(await reply(tasksGet('task-working'), 'alice', true)).toMatchObject({
      result: {
        taskId: 'task-working',
        status: 'working',
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcp-tasks-playground' } },
      },
    });
    expect(await reply(tasksGet('task-working', false), 'alice', true)).toMatchObject({
      error: { code: -32021 },
    });
    expect(await reply(tasksGet('task-working'), 'mallory', true)).toMatchObject({
      error: { code: -32602 },
    });
  });

  it('C2, C7: a malformed tasks/get is refused exactly as without the direct path, by the same check', async () => {
    const message = tasksGet('task-working');
    const params = message['params'] as Record<string, unknown>;
    const variants: Record<string, unknown>[] = [
      { ...message, id: 1.5 },
      { ...message, jsonrpc: '1.0' },
      { ...message, params: { taskId: 'task-working' } },
      {
        ...message,
        params: {
          taskId: 'task-working',
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
        },
      },
      { ...message, params: { ...params, taskId: 'task working' } },
    ];
    // Not malformed, but params the direct path leaves to the SDK (it would lift them).
    const odd: Record<string, unknown>[] = [
      { ...message, params: { ...params, inputResponses: { a: {} } } },
      { ...message, params: { ...params, requestState: 'x' } },
    ];
    const sdkEntry = vi.spyOn(server.http, 'fetch');
    try {
      for (const variant of [...variants, ...odd]) {
        sdkEntry.mockClear();
        const sdk = await reply(variant, 'alice', false);
        const viaSdk = sdkEntry.mock.calls.length;
        sdkEntry.mockClear();
        const ours = await reply(variant, 'alice', true);
        // The direct path took none of these: each went where it goes without it (the port's own
        // parse refuses a broken JSON-RPC shape first; the SDK's entry refuses the rest).
        expect(sdkEntry.mock.calls.length, JSON.stringify(variant)).toBe(viaSdk);
        expect(ours, JSON.stringify(variant)).toEqual(sdk);
        if (variants.includes(variant))
          expect(ours, JSON.stringify(variant)).toHaveProperty('error');
      }
    } finally {
      sdkEntry.mockRestore();
    }
  });

  it('C7, T20: any request, broken or odd, hostile task ids included, gets the same reply from both paths', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('alice', 'mallory'),
        comparableRequest(taskIds),
        async (identity, request) => {
          // Valid requests by the owner get a made-up id: a tasks/update or cancel would change the task.
          const message = prepareCase(request, identity, 'alice', () => nextId++);
          // A message that gets no reply on either path (a notification) has nothing to compare.
          fc.pre(!expectsNoAnswer(message));
          await expectSameReply(message, identity);
        },
      ),
      fcParameters(100),
    );
    // Two ports and a fresh channel per case: on a loaded machine this takes longer than the default.
  }, 60_000);
});
