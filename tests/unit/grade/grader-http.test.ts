/**
 * The grader's own address: CORS for pages served from this machine (the
 * Node host's, passed through), the report card as HTML and JSON, and
 * what it records of a request, unchanged on its way to the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGrader, type Grader } from '../../../src/grade/node-grader.ts';
import { ErrorCode, META, PROTOCOL_VERSION } from '../../../src/protocol/constants.ts';

let grader: Grader;
beforeAll(async () => {
  grader = await startGrader({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await grader.close();
});

const preflight = (origin: string) =>
  fetch(grader.url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, mcp-method, mcp-name, authorization',
    },
  });

describe('the grader over HTTP', () => {
  it('T19: answers CORS for a page served from this machine (Mcp-* headers allowed), and for no other origin', async () => {
    const local = await preflight('http://localhost:5173');
    expect(local.status).toBe(204);
    expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(local.headers.get('access-control-allow-headers')).toContain('mcp-name');
    const elsewhere = await preflight('https://example.com');
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('T3: records a request as sent and passes the answer through (-32021 without the extension)', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'grade_failed_task',
        arguments: {},
        _meta: {
          [META.protocolVersion]: PROTOCOL_VERSION,
          [META.clientInfo]: { name: 'http-test', version: '1' },
          [META.clientCapabilities]: {},
        },
      },
    };
    const response = await fetch(grader.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer http-test',
        'mcp-protocol-version': PROTOCOL_VERSION,
        'mcp-method': 'tools/call',
        'mcp-name': 'grade_failed_task',
      },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { error?: { code: number } };
    expect(answer.error?.code).toBe(ErrorCode.MissingRequiredClientCapability);
    const recorded = grader.exchanges.at(-1);
    expect(recorded).toMatchObject({
      bearer: 'http-test',
      mcpMethod: 'tools/call',
      mcpName: 'grade_failed_task',
      body,
      answer: { httpStatus: response.status, body: answer },
    });
    expect(recorded?.answer?.at).toBeGreaterThanOrEqual(recorded?.at ?? Infinity);
  });

  it('serves the report card as HTML at /report, as JSON at /report.json or with Accept: application/json', async () => {
    const html = await fetch(grader.reportUrl);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await html.text()).toContain('bearer http-test');
    for (const response of [
      await fetch(`${grader.reportUrl}.json`),
      await fetch(grader.reportUrl, { headers: { accept: 'application/json' } }),
    ]) {
      const card = (await response.json()) as { checkCount: number; clients: { client: string }[] };
      expect(card.checkCount).toBe(7);
      expect(card.clients.map((c) => c.client)).toContain('bearer http-test');
    }
  });
});
