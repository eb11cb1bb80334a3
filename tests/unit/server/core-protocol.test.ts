/** Core protocol rules (C*) as our server answers them, through the real port host and SDK entry. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, envelope, type Harness } from '../helpers/harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

describe('core protocol', () => {
  it('C2: a request without the _meta envelope is refused with -32602', async () => {
    const reply = await h.raw({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(reply['error']).toMatchObject({ code: -32602 });
  });

  it('C3: an unsupported protocol version gets -32022 naming the supported ones', async () => {
    const reply = await h.raw({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/list',
      params: { _meta: envelope(true, '2099-01-01') },
    });
    expect(reply['error']).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'], requested: '2099-01-01' },
    });
  });

  it('C4, C6: results carry resultType "complete" and serverInfo', async () => {
    const result = await h.client.request('tools/list', {}, { tasks: true });
    expect(result['resultType']).toBe('complete');
    expect(result['_meta']).toMatchObject({
      'io.modelcontextprotocol/serverInfo': { name: 'mcp-tasks-playground' },
    });
  });

  it('C5, T1: server/discover advertises the tasks extension and 2026-07-28', async () => {
    const result = await h.client.request('server/discover', {}, { tasks: false });
    expect(result['supportedVersions']).toEqual(['2026-07-28']);
    expect(result['capabilities']).toMatchObject({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
  });

  it('C7: malformed JSON-RPC gets -32600 and the port keeps serving', async () => {
    const bad = await h.raw({ jsonrpc: '1.0', id: 7, method: 42 });
    expect(bad['error']).toMatchObject({ code: -32600 });
    expect(bad['id']).toBe(7);
    const good = await h.client.request('tools/list', {}, { tasks: true });
    expect(Array.isArray(good['tools'])).toBe(true);
  });

  it('C7: an unknown method gets -32601', async () => {
    const reply = await h.raw({
      jsonrpc: '2.0',
      id: 3,
      method: 'nope/nothing',
      params: { _meta: envelope(true) },
    });
    expect(reply['error']).toMatchObject({ code: -32601 });
  });

  it('C7: an unknown tool gets -32602', async () => {
    await expect(
      h.client.request('tools/call', { name: 'no_such_tool', arguments: {} }, { tasks: true }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('C8: a request lost to a dropped link is re-issued under a new id and answered once', async () => {
    const call = h.client.request(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0.3 } },
      { tasks: false },
    );
    h.client.dropConnection('test drop');
    const result = await call;
    expect(result['content']).toEqual([{ type: 'text', text: 'Computed in 0.3 s' }]);
    const sent = h.wire.filter(
      (e) => e.direction === 'out' && (e.message as { method?: string }).method === 'tools/call',
    );
    expect(sent).toHaveLength(2);
    const [first, second] = sent.map((e) => (e.message as { id: number }).id);
    expect(second).not.toBe(first);
    expect(sent[1]?.reissueOf).toBe(first);
  });
});
