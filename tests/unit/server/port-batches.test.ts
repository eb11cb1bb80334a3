/**
 * Batched worker ports (src/protocol/port-batches.ts): the page's ports to
 * its server worker carry arrays of the messages sent in one tick. Each
 * message of a batch must be read, checked and answered exactly as the same
 * message alone on a plain port: hostile ones included (the fuzzing's
 * broken requests), so batching moves no check off the path.
 *
 * Seeded and bounded (see helpers/fc-run.ts for FC_SEED, FC_RUNS, FC_PATH).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { servePort } from '../../../src/server/port-host.ts';
import { fcParameters } from '../helpers/fc-run.ts';
import { comparableRequest, expectsNoAnswer, prepareCase } from '../helpers/fuzz-inputs.ts';
import { createHarness, taskWaitingForInput, type Harness } from '../helpers/harness.ts';

let h: Harness;
let victim: string;
let nextId = 1;

beforeAll(async () => {
  h = await createHarness({}, 'alice');
  victim = await taskWaitingForInput(h.client);
});
afterAll(() => h.close());

/**
 * Sends `messages` on a fresh port served as `identity` (batched: all in one
 * `postMessage`; else one each) and resolves with every reply, once as many
 * came as the messages expect.
 */
async function repliesOf(
  messages: readonly unknown[],
  identity: string,
  batched: boolean,
): Promise<unknown[]> {
  const channel = new MessageChannel();
  const host = servePort(h.server, channel.port1, identity, { batched });
  const replies: unknown[] = [];
  const posts: unknown[] = [];
  channel.port2.addEventListener('message', (event) => {
    posts.push(event.data);
    if (!batched) replies.push(event.data);
    else if (Array.isArray(event.data)) replies.push(...(event.data as unknown[]));
  });
  channel.port2.start();
  if (batched) channel.port2.postMessage(messages);
  else for (const message of messages) channel.port2.postMessage(message);
  const expected = messages.filter((m) => !expectsNoAnswer(m)).length;
  try {
    await vi.waitFor(() => expect(replies.length).toBeGreaterThanOrEqual(expected), {
      timeout: 5000,
    });
    // A batched port answers with batches only: every post an array.
    if (batched) expect(posts.every((post) => Array.isArray(post))).toBe(true);
    return replies;
  } finally {
    host.close();
    channel.port2.close();
  }
}

const sorted = (replies: readonly unknown[]): string[] =>
  replies.map((reply) => JSON.stringify(reply)).sort();

describe('batched worker ports', () => {
  it('C7: every message of a batch gets the answer it gets alone on a plain port, hostile ones included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('alice', 'mallory'),
        fc.array(comparableRequest([victim]), { minLength: 1, maxLength: 6 }),
        async (identity, requests) => {
          const messages = requests.map((r) => prepareCase(r, identity, 'alice', () => nextId++));
          const alone = await repliesOf(messages, identity, false);
          const together = await repliesOf(messages, identity, true);
          expect(sorted(together), requests.map((r) => r.labels.join('; ')).join(' | ')).toEqual(
            sorted(alone),
          );
        },
      ),
      fcParameters(60),
    );
  });

  it('T10: tasks/get requests sent in one tick as one postMessage are all answered in one, each under its id', async () => {
    const channel = new MessageChannel();
    const host = servePort(h.server, channel.port1, 'alice', { batched: true });
    const posts: unknown[] = [];
    channel.port2.addEventListener('message', (event) => posts.push(event.data));
    channel.port2.start();
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
    };
    const ids = [101, 102, 103];
    channel.port2.postMessage(
      ids.map((id) => ({
        jsonrpc: '2.0',
        id,
        method: 'tasks/get',
        params: { taskId: victim, _meta: meta },
      })),
    );
    try {
      await vi.waitFor(() => expect(posts.flat()).toHaveLength(3), { timeout: 5000 });
      // All three answered in the tick they arrived in: one batch back.
      expect(posts).toHaveLength(1);
      const answers = posts.flat() as { id: number; result: { taskId: string } }[];
      expect(answers.map((a) => a.id)).toEqual(ids);
      expect(answers.every((a) => a.result.taskId === victim)).toBe(true);
    } finally {
      host.close();
      channel.port2.close();
    }
  });
});
