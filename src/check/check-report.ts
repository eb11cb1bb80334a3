/**
 * What a run of the server checks produces, and its two exports (JSON and Markdown). Shared by
 * the page's "Check this server" panel and `npm run check-server`, so both say the same thing.
 */

export type CheckVerdict = 'pass' | 'fail' | 'not-applicable';

/** One HTTP exchange a check made, exactly as sent and received (Authorization redacted). */
export interface CheckExchange {
  readonly request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: unknown;
  };
  /** Absent when nothing came back (see `error`). Body parsed as JSON when it is JSON, else text. */
  readonly response?: { status: number; headers: Record<string, string>; body: unknown };
  /** Why nothing came back: refused, timed out, aborted. */
  readonly error?: string;
  /** How long the exchange took, in milliseconds. */
  readonly durationMs?: number;
}

/** The verdict of one check, with the exchanges it was decided on. */
export interface CheckResult {
  /** Stable, kebab-case, e.g. `no-task-without-extension`. */
  readonly id: string;
  /** Rule ids of docs/tasks-2026-07-28.md, e.g. `['T3']`. */
  readonly rules: readonly string[];
  /** What is checked, one sentence. */
  readonly title: string;
  readonly verdict: CheckVerdict;
  /** Why it passed / failed / does not apply, in words. */
  readonly detail: string;
  readonly exchanges: readonly CheckExchange[];
}

/** How the official conformance suite reports a check. */
export type ConformanceStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';

/** One check of the official conformance suite's tasks-* scenarios, as `check-server` ran it. */
export interface ConformanceCheck {
  readonly scenario: string;
  readonly id: string;
  readonly status: ConformanceStatus;
  readonly description: string;
  /** The suite's reason, for a failure. */
  readonly error?: string;
}

/** What the official suite found (headless only: the page does not run it). */
export interface ConformanceResults {
  readonly checks: readonly ConformanceCheck[];
  /** Scenarios that did not really run (killed, printed nothing), and why. */
  readonly erroredScenarios: readonly { scenario: string; why: string }[];
}

/** Every check's result against one server, in the order they ran. */
export interface CheckReport {
  /** The URL checked. */
  readonly server: string;
  /** The tool the user chose. */
  readonly tool: string;
  /** ISO time. */
  readonly startedAt: string;
  /** ISO time. */
  readonly finishedAt: string;
  readonly results: readonly CheckResult[];
  /** Set by `npm run check-server`, which runs the official suite too. */
  readonly conformance?: ConformanceResults;
}

/** What a header value is replaced with in every exchange kept or exported. */
export const REDACTED = '[redacted]';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/**
 * A copy of `headers` with names lower-cased and credentials replaced by {@link REDACTED}, so a
 * report can be pasted into an issue without leaking the bearer token.
 */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    out[lower] = SECRET_HEADERS.has(lower) ? REDACTED : value;
  }
  return out;
}

/** How many results have each verdict. */
export function countVerdicts(results: readonly CheckResult[]): Record<CheckVerdict, number> {
  const counts: Record<CheckVerdict, number> = { pass: 0, fail: 0, 'not-applicable': 0 };
  for (const result of results) counts[result.verdict] += 1;
  return counts;
}

/** The report as it is held, redacted once more (a report built by hand may carry a token). */
function redactReport(report: CheckReport): CheckReport {
  return {
    ...report,
    results: report.results.map((result) => ({
      ...result,
      exchanges: result.exchanges.map(redactExchange),
    })),
  };
}

function redactExchange(exchange: CheckExchange): CheckExchange {
  return {
    ...exchange,
    request: { ...exchange.request, headers: redactHeaders(exchange.request.headers) },
    ...(exchange.response && {
      response: { ...exchange.response, headers: redactHeaders(exchange.response.headers) },
    }),
  };
}

/** How many conformance checks have each status. */
export function countConformance(
  conformance: ConformanceResults,
): Record<ConformanceStatus, number> {
  const counts: Record<ConformanceStatus, number> = {
    SUCCESS: 0,
    FAILURE: 0,
    WARNING: 0,
    INFO: 0,
    SKIPPED: 0,
  };
  for (const check of conformance.checks) counts[check.status] += 1;
  return counts;
}

/** Whether the report holds a failure: a check failed, or the suite failed or could not run. */
export function reportFailed(report: CheckReport): boolean {
  return (
    report.results.some((result) => result.verdict === 'fail') ||
    (report.conformance !== undefined &&
      (report.conformance.erroredScenarios.length > 0 ||
        report.conformance.checks.some((check) => check.status === 'FAILURE')))
  );
}

/** The report as pretty-printed JSON, with a summary of the verdicts. */
export function reportToJson(report: CheckReport): string {
  const redacted = redactReport(report);
  const summary = {
    ...countVerdicts(redacted.results),
    ...(report.conformance && { conformance: countConformance(report.conformance) }),
  };
  return `${JSON.stringify({ ...redacted, summary }, null, 2)}\n`;
}

const VERDICT_WORDS: Record<CheckVerdict, string> = {
  pass: 'pass',
  fail: 'FAIL',
  'not-applicable': 'n/a',
};

/** One cell of a Markdown table: pipes escaped, line breaks folded. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A fenced block long enough that no run of backticks in `text` can close it. */
function fenced(language: string, text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

function bodyText(body: unknown): { language: string; text: string } {
  if (typeof body === 'string') return { language: 'text', text: body };
  return { language: 'json', text: JSON.stringify(body, null, 2) ?? String(body) };
}

function headerLines(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function exchangeToMarkdown(exchange: CheckExchange, index: number): string {
  const { request, response, error } = exchange;
  const parts = [`**Exchange ${index + 1}:** \`${request.method} ${request.url}\``];
  const sent = bodyText(request.body);
  parts.push(fenced('http', headerLines(request.headers)), fenced(sent.language, sent.text));
  if (response) {
    const received = bodyText(response.body);
    parts.push(
      `Answered HTTP ${response.status}:`,
      fenced('http', headerLines(response.headers)),
      fenced(received.language, received.text),
    );
  }
  if (error !== undefined) parts.push(`No answer: ${error}`);
  return parts.join('\n\n');
}

/**
 * The report as Markdown: a summary line, one table row per check (verdict, rule ids, title,
 * why), then each failed check with the exact exchanges it was decided on.
 */
export function reportToMarkdown(report: CheckReport): string {
  const { results } = redactReport(report);
  const counts = countVerdicts(results);
  const lines = [
    `# Tasks checks of ${report.server}`,
    '',
    `Tool checked: \`${report.tool}\`. Started ${report.startedAt}, finished ${report.finishedAt}.`,
    '',
    `**${counts.pass} passed, ${counts.fail} failed, ${counts['not-applicable']} not applicable.**`,
    '',
    '| verdict | rules | check | why |',
    '| --- | --- | --- | --- |',
    ...results.map(
      (result) =>
        `| ${VERDICT_WORDS[result.verdict]} | ${cell(result.rules.join(', '))} | ${cell(result.title)} | ${cell(result.detail)} |`,
    ),
  ];
  const failed = results.filter((result) => result.verdict === 'fail');
  if (failed.length > 0) lines.push('', '## Failures');
  for (const result of failed) {
    lines.push(
      '',
      `### ${result.rules.join(', ')}: ${result.title} (\`${result.id}\`)`,
      '',
      result.detail,
    );
    result.exchanges.forEach((exchange, index) => {
      lines.push('', exchangeToMarkdown(exchange, index));
    });
  }
  if (report.conformance) lines.push('', ...conformanceToMarkdown(report.conformance));
  return `${lines.join('\n')}\n`;
}

function conformanceToMarkdown(conformance: ConformanceResults): string[] {
  const counts = countConformance(conformance);
  const lines = [
    '## Official conformance suite (tasks-* scenarios)',
    '',
    `**${counts.SUCCESS} passed, ${counts.FAILURE} failed** (${counts.WARNING} warnings, ${counts.SKIPPED} skipped, ${counts.INFO} info, ${conformance.erroredScenarios.length} scenarios did not run).`,
    '',
    '| status | scenario | check | why |',
    '| --- | --- | --- | --- |',
    ...conformance.checks.map(
      (check) =>
        `| ${check.status} | ${cell(check.scenario)} | ${cell(check.id)} | ${cell(check.error ?? check.description)} |`,
    ),
  ];
  for (const { scenario, why } of conformance.erroredScenarios)
    lines.push('', `Scenario \`${scenario}\` did not run: ${why}.`);
  return lines;
}
