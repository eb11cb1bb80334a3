/** The report card: clients told apart, full marks only when every check passed, words escaped. */
import { describe, expect, it } from 'vitest';
import { reportCard } from '../../../src/grade/report-card.ts';
import { reportHtml, reportText } from '../../../src/grade/report-render.ts';
import { GraderTool } from '../../../src/grade/tool-names.ts';
import { ExchangeLog } from './exchange-builder.ts';

describe('the report card', () => {
  it('clients are told apart by bearer identity, else by clientInfo', () => {
    const alice = new ExchangeLog({ bearer: 'alice' });
    alice.request(0, 'server/discover');
    const anonymous = new ExchangeLog({ clientName: 'my-client' });
    anonymous.request(1, 'server/discover');
    const long = new ExchangeLog({ bearer: 'sk-0123456789abcdefghij' });
    long.request(2, 'server/discover');
    const records = [...alice.records, ...anonymous.records, ...long.records].map((r, i) => ({
      ...r,
      seq: i + 1,
    }));
    expect(reportCard(records, 0).clients.map((c) => c.client)).toEqual([
      'bearer alice',
      'my-client 1',
      // A long token is not shown whole.
      'bearer sk-0…ij',
    ]);
  });

  it('full marks only when every check passed; the tools a client ran are listed', () => {
    const log = new ExchangeLog();
    log.call(0, GraderTool.failed, 't1', { status: 'working', pollIntervalMs: 500 });
    log.get(500, 't1', { status: 'failed', pollIntervalMs: 500 });
    const [client] = reportCard(log.records, 0).clients;
    expect(client).toMatchObject({ passed: 4, failed: 0, fullMarks: false });
    expect(client?.tools.find((t) => t.tool === GraderTool.failed)).toEqual({
      tool: GraderTool.failed,
      calls: 1,
      tasks: [{ taskId: 't1', last: 'failed' }],
    });
    expect(reportText(reportCard(log.records, 0))).toContain(
      'Client bearer alice: 4/7, 2 requests',
    );
  });

  it('what a client sent is text in the HTML card, never markup', () => {
    const log = new ExchangeLog({ bearer: '<img/src=x>' });
    log.request(0, 'server/discover');
    const html = reportHtml(reportCard(log.records, 0));
    expect(html).not.toContain('<img/src=x>');
    expect(html).toContain('&#60;img/src=x&#62;');
  });
});
