/**
 * HAR export: a HAR 1.2 log with every field the format requires, one entry
 * per request the page sent and the response that answered it, timed from
 * the recorded times; a remote server's HTTP facts (status, `Mcp-*` headers)
 * carried over; the built-in worker said to be a MessagePort.
 */
import { describe, expect, it } from 'vitest';
import { harOf, RUN_PAGE_ID, type Har } from '../../../src/record/har.ts';
import type { RunFile } from '../../../src/record/run-file.ts';
import type { RunEvent } from '../../../src/record/run-events.ts';
import { sampleRun, SAMPLE_T0 } from '../../../scripts/bench/sample-run.ts';

const T0 = SAMPLE_T0;

function runWith(events: RunEvent[], server: RunFile['setup']['server']): RunFile {
  return sampleRun(events, { server });
}

const wire = (at: number, direction: 'out' | 'in', message: unknown, extra = {}): RunEvent => ({
  at,
  kind: 'wire',
  entry: { seq: at, at: T0 + at, direction, message, ...extra },
});

/** The fields HAR 1.2 requires, checked on every entry. */
function expectHar12(har: Har): void {
  expect(har.log.version).toBe('1.2');
  expect(har.log.creator).toEqual({ name: expect.any(String), version: expect.any(String) });
  expect(Array.isArray(har.log.entries)).toBe(true);
  // Pages (optional in HAR 1.2, liked by viewers): each with the fields the format requires.
  const pageIds = new Set<string>();
  for (const page of har.log.pages) {
    expect(Number.isNaN(Date.parse(page.startedDateTime))).toBe(false);
    expect(page).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        title: expect.any(String),
        pageTimings: expect.any(Object),
      }),
    );
    for (const timing of Object.values(page.pageTimings))
      expect(timing === -1 || timing >= 0).toBe(true);
    expect(pageIds.has(page.id)).toBe(false);
    pageIds.add(page.id);
  }
  for (const entry of har.log.entries) {
    // A pageref names one of the log's pages.
    if (entry.pageref !== undefined) expect(pageIds.has(entry.pageref)).toBe(true);
    expect(Number.isNaN(Date.parse(entry.startedDateTime))).toBe(false);
    expect(entry.time).toBeGreaterThanOrEqual(0);
    const { request, response, timings } = entry;
    for (const key of [
      'method',
      'url',
      'httpVersion',
      'cookies',
      'headers',
      'queryString',
      'headersSize',
      'bodySize',
    ])
      expect(request).toHaveProperty(key);
    for (const key of [
      'status',
      'statusText',
      'httpVersion',
      'cookies',
      'headers',
      'content',
      'redirectURL',
      'headersSize',
      'bodySize',
    ])
      expect(response).toHaveProperty(key);
    expect(response.content).toEqual(
      expect.objectContaining({ size: expect.any(Number), mimeType: expect.any(String) }),
    );
    expect(entry.cache).toEqual({});
    for (const key of ['send', 'wait', 'receive'] as const)
      expect(timings[key]).toBeGreaterThanOrEqual(0);
    for (const header of [...request.headers, ...response.headers])
      expect(header).toEqual({ name: expect.any(String), value: expect.any(String) });
  }
  // What a HAR reader would do with it: it is plain JSON.
  expect(JSON.parse(JSON.stringify(har))).toEqual(har);
}

describe('HAR export of the wire', () => {
  it('built-in worker: one entry per request with its response, timed, the MessagePort said in the comment', () => {
    const har = harOf(
      runWith(
        [
          wire(0, 'out', { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
          wire(3, 'out', { jsonrpc: '2.0', method: 'notifications/initialized' }),
          wire(12, 'in', { jsonrpc: '2.0', id: 1, result: { tools: [] } }),
          wire(
            20,
            'out',
            { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId: 't' } },
            {
              net: {
                packet: 3,
                link: 1,
                direction: 'out',
                sentAt: T0 + 20,
                delayMs: 0,
                lost: 'loss',
              },
            },
          ),
          wire(25, 'in', { jsonrpc: '2.0', method: 'notifications/tasks', params: {} }),
        ],
        { kind: 'built-in' },
      ),
    );
    expectHar12(har);
    expect(har.log.comment).toMatch(/MessagePort/);
    expect(har.log.entries).toHaveLength(3);
    const [list, note, lost] = har.log.entries;
    expect(list!.time).toBe(12);
    expect(list!.startedDateTime).toBe('2026-07-28T10:00:00.000Z');
    expect(list!.response).toMatchObject({
      status: 200,
      content: { text: '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}' },
    });
    expect(JSON.parse(list!.request.postData.text)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
    });
    expect(note!.comment).toBe('notifications/initialized');
    expect(lost!.response.status).toBe(0);
    expect(lost!.comment).toMatch(/lost in the network \(loss\)/);
  });

  it('remote server: the real HTTP status, content type and Mcp-* headers the wire log knows', () => {
    const har = harOf(
      runWith(
        [
          wire(0, 'out', { jsonrpc: '2.0', id: 4, method: 'tasks/get', params: { taskId: 't' } }),
          wire(
            40,
            'in',
            { jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'Task not found' } },
            {
              http: {
                status: 200,
                statusText: 'OK',
                contentType: 'text/event-stream',
                requestHeaders: { 'mcp-method': 'tasks/get', 'mcp-name': 't' },
                ms: 31,
              },
            },
          ),
        ],
        { kind: 'remote', url: 'http://localhost:3000/mcp' },
      ),
    );
    expectHar12(har);
    const [entry] = har.log.entries;
    expect(entry!.request.url).toBe('http://localhost:3000/mcp');
    expect(entry!.request.headers).toContainEqual({ name: 'mcp-name', value: 't' });
    expect(entry!.response).toMatchObject({
      status: 200,
      headers: [{ name: 'Content-Type', value: 'text/event-stream' }],
    });
    expect(entry!.timings).toEqual({ send: 0, wait: 31, receive: 9 });
    expect(har.log.comment).toMatch(/Streamable HTTP to http:\/\/localhost:3000\/mcp/);
  });

  it('one page for the run, named after its scenario when it had one, and every entry references it', () => {
    const events = [
      wire(0, 'out', { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      wire(5, 'out', { jsonrpc: '2.0', method: 'notifications/initialized' }),
      wire(9, 'in', { jsonrpc: '2.0', id: 1, result: { tools: [] } }),
    ];
    const plain = harOf(runWith(events, { kind: 'built-in' }));
    expectHar12(plain);
    expect(plain.log.pages).toEqual([
      {
        startedDateTime: '2026-07-28T10:00:00.000Z',
        id: RUN_PAGE_ID,
        title: 'MCP Tasks Playground run, 2026-07-28T10:00:00.000Z',
        pageTimings: { onContentLoad: -1, onLoad: -1 },
        comment: expect.stringContaining('the built-in server'),
      },
    ]);
    expect(plain.log.entries).toHaveLength(2);
    for (const entry of plain.log.entries) expect(entry.pageref).toBe(RUN_PAGE_ID);

    const scenario = harOf({
      ...runWith(events, { kind: 'remote', url: 'http://localhost:3000/mcp' }),
      scenario: { id: 'cancel-race', title: 'The cancel race' },
    });
    expectHar12(scenario);
    expect(scenario.log.pages[0].title).toBe(
      'The cancel race (scenario run, MCP Tasks Playground)',
    );
    expect(scenario.log.pages[0].comment).toContain('http://localhost:3000/mcp');
  });
});
