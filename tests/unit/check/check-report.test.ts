import { describe, expect, it } from 'vitest';
import {
  REDACTED,
  countVerdicts,
  redactHeaders,
  reportFailed,
  reportToJson,
  reportToMarkdown,
  type CheckReport,
  type CheckResult,
} from '../../../src/check/check-report.ts';

const exchange = {
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:3939/mcp',
    headers: { Authorization: 'Bearer s3cret', 'mcp-method': 'tasks/get' },
    body: { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId: 'a|b' } },
  },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json', 'Set-Cookie': 'session=s3cret' },
    body: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'no task ```x```' } },
  },
};

function result(overrides: Partial<CheckResult>): CheckResult {
  return {
    id: 'unknown-task-id',
    rules: ['T13'],
    title: 'An unknown taskId is answered -32602',
    verdict: 'pass',
    detail: 'Answered -32602 as required.',
    exchanges: [exchange],
    ...overrides,
  };
}

const report: CheckReport = {
  server: 'http://127.0.0.1:3939/mcp',
  tool: 'slow_compute',
  startedAt: '2026-12-01T15:00:00.000Z',
  finishedAt: '2026-12-01T15:00:02.000Z',
  results: [
    result({}),
    result({
      id: 'mcp-name-missing',
      rules: ['T19'],
      title: 'A tasks/get without Mcp-Name | or a wrong one is refused',
      verdict: 'fail',
      detail: 'Answered 200 with a task\ninstead of -32020.',
    }),
    result({
      id: 'is-error-completes',
      rules: ['T11'],
      verdict: 'not-applicable',
      detail: 'No tool given that ends with isError.',
      exchanges: [],
    }),
  ],
};

describe('check report', () => {
  it('counts each verdict', () => {
    expect(countVerdicts(report.results)).toEqual({ pass: 1, fail: 1, 'not-applicable': 1 });
    expect(countVerdicts([])).toEqual({ pass: 0, fail: 0, 'not-applicable': 0 });
  });

  it('redacts credentials and lower-cases header names, leaving the rest as it was', () => {
    expect(
      redactHeaders({ Authorization: 'Bearer x', Cookie: 'a=b', 'Mcp-Name': 'slow_compute' }),
    ).toEqual({ authorization: REDACTED, cookie: REDACTED, 'mcp-name': 'slow_compute' });
  });

  it('JSON: round-trips the report with a summary, and never carries a token', () => {
    const json = reportToJson(report);
    expect(json).not.toContain('s3cret');
    const parsed = JSON.parse(json);
    expect(parsed.summary).toEqual({ pass: 1, fail: 1, 'not-applicable': 1 });
    expect(parsed.results.map((r: CheckResult) => r.id)).toEqual([
      'unknown-task-id',
      'mcp-name-missing',
      'is-error-completes',
    ]);
    expect(parsed.results[0].exchanges[0].request.headers).toEqual({
      authorization: REDACTED,
      'mcp-method': 'tasks/get',
    });
    expect(parsed.results[0].exchanges[0].response.body).toEqual(exchange.response.body);
    expect(parsed.server).toBe(report.server);
  });

  it('Markdown: a summary, one row per check with escaped cells, failures with their exchanges', () => {
    const markdown = reportToMarkdown(report);
    expect(markdown).not.toContain('s3cret');
    expect(markdown).toContain('**1 passed, 1 failed, 1 not applicable.**');
    const rows = markdown.split('\n').filter((line) => /^\| (pass|FAIL|n\/a) \|/.test(line));
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain('without Mcp-Name \\| or a wrong one');
    expect(rows[1]).toContain('a task instead of -32020');
    // Only the failure is written out in full.
    expect(markdown).toContain('### T19: A tasks/get without Mcp-Name | or a wrong one is refused');
    expect(markdown).not.toContain('### T13');
    expect(markdown).toContain('Answered HTTP 200:');
    // The body holds triple backticks, so its fence is longer.
    expect(markdown).toContain('````json');
  });

  it('Markdown: a check with no answer says why, and a clean run has no failure section', () => {
    const down = result({
      verdict: 'fail',
      exchanges: [{ request: exchange.request, error: 'connect ECONNREFUSED' }],
    });
    const markdown = reportToMarkdown({ ...report, results: [down] });
    expect(markdown).toContain('No answer: connect ECONNREFUSED');
    expect(markdown).not.toContain('Answered HTTP');
    const clean = reportToMarkdown({ ...report, results: [result({})] });
    expect(clean).not.toContain('## Failures');
  });

  it('the official suite: counted in JSON, a table in Markdown, and its failures and dead scenarios fail the report', () => {
    const passing = { ...report, results: [result({})] };
    expect(reportFailed(passing)).toBe(false);
    expect(reportFailed(report)).toBe(true);
    const conformance = {
      checks: [
        {
          scenario: 'tasks-lifecycle',
          id: 'tasks-get-status-working',
          status: 'SUCCESS' as const,
          description: 'tasks/get reads working',
        },
        {
          scenario: 'tasks-request-headers',
          id: 'tasks-headers-reject-mismatched-name',
          status: 'FAILURE' as const,
          description: 'Mcp-Name mismatch is refused',
          error: 'expected -32020 | got a result',
        },
      ],
      erroredScenarios: [],
    };
    const withSuite = { ...passing, conformance };
    expect(reportFailed(withSuite)).toBe(true);
    expect(JSON.parse(reportToJson(withSuite)).summary.conformance).toMatchObject({
      SUCCESS: 1,
      FAILURE: 1,
    });
    const markdown = reportToMarkdown(withSuite);
    expect(markdown).toContain('## Official conformance suite');
    expect(markdown).toContain(
      '| FAILURE | tasks-request-headers | tasks-headers-reject-mismatched-name | expected -32020 \\| got a result |',
    );
    const dead = {
      ...passing,
      conformance: {
        checks: [],
        erroredScenarios: [{ scenario: 'tasks-mrtr-input', why: 'printed no checks' }],
      },
    };
    expect(reportFailed(dead)).toBe(true);
    expect(reportToMarkdown(dead)).toContain('`tasks-mrtr-input` did not run: printed no checks.');
  });
});
