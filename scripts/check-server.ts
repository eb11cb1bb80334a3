/**
 * `npm run check-server -- <url>`: checks any Streamable HTTP server speaking MCP 2026-07-28
 * for the Tasks extension, for CI. Runs the official conformance suite's tasks-* scenarios and
 * this project's own checks (src/check, the same the page's "Check this server" runs), prints
 * one report, and exits 1 on any failure, 2 on bad input (a URL that is not http(s), a server
 * that is down or does not speak JSON-RPC).
 *
 *   npm run check-server -- http://127.0.0.1:3939/mcp
 *   npm run check-server -- URL --tool my_task_tool [--input-tool T] [--error-tool T]
 *     [--args JSON] [--token T] [--json report.json] [--markdown report.md]
 *     [--timeout MS] [--skip-conformance]
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  countConformance,
  countVerdicts,
  reportFailed,
  reportToJson,
  reportToMarkdown,
  type CheckExchange,
  type CheckReport,
  type CheckResult,
  type ConformanceResults,
} from '../src/check/check-report.ts';
import { exchange, requestBody } from '../src/check/raw-exchange.ts';
import {
  runServerChecks,
  type CheckOptions,
  type CheckTarget,
} from '../src/check/server-checks.ts';
import { Method } from '../src/protocol/constants.ts';
import { missingSuiteFile, runSuiteScenario, SCENARIOS } from './conformance/suite.ts';

/** The project's own tools, used when the server lists them and no other is named. */
const DEFAULTS = { tool: 'slow_compute', inputTool: 'multi_input', errorTool: 'failing_job' };

const USAGE =
  'usage: npm run check-server -- <url> [--tool name] [--input-tool name] [--error-tool name] [--args JSON] [--token T] [--json file] [--markdown file] [--timeout ms] [--skip-conformance]';

class BadInput extends Error {}

interface Command {
  target: CheckTarget;
  options: Omit<CheckOptions, 'tool'> & { tool?: string };
  json?: string;
  markdown?: string;
  conformance: boolean;
}

function parseCommand(argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        tool: { type: 'string' },
        'input-tool': { type: 'string' },
        'error-tool': { type: 'string' },
        args: { type: 'string' },
        token: { type: 'string' },
        json: { type: 'string' },
        markdown: { type: 'string' },
        timeout: { type: 'string' },
        'skip-conformance': { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new BadInput(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new BadInput(`expected one URL\n${USAGE}`);
  const url = positionals[0]!;
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new BadInput(
      `"${url}" is not a URL; give the server's MCP endpoint, e.g. http://127.0.0.1:3939/mcp`,
    );
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new BadInput(`"${url}" is not http(s): Streamable HTTP servers only`);
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
    throw new BadInput(
      `--timeout expects a positive number of milliseconds, not "${values.timeout}"`,
    );
  let args: Record<string, unknown> | undefined;
  if (values.args !== undefined) {
    try {
      const value: unknown = JSON.parse(values.args);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error();
      args = Object.fromEntries(Object.entries(value));
    } catch {
      throw new BadInput(`--args expects a JSON object, e.g. '{"seconds": 1}', not ${values.args}`);
    }
  }
  return {
    target: {
      url,
      ...(values.token !== undefined && { token: values.token }),
      ...(timeoutMs !== undefined && { timeoutMs }),
    },
    options: {
      ...(values.tool !== undefined && { tool: values.tool }),
      ...(args !== undefined && { arguments: args }),
      ...(values['input-tool'] !== undefined && { inputTool: values['input-tool'] }),
      ...(values['error-tool'] !== undefined && { errorTool: values['error-tool'] }),
    },
    ...(values.json !== undefined && { json: values.json }),
    ...(values.markdown !== undefined && { markdown: values.markdown }),
    conformance: values['skip-conformance'] !== true,
  };
}

/**
 * Asks `server/discover` and `tools/list` before anything else, so a server that is down or
 * does not speak JSON-RPC is told in plain words (exit 2) rather than as sixteen failures.
 * Returns the tool names the server lists (empty if it would not say).
 */
async function preflight(target: CheckTarget): Promise<string[]> {
  const discover = await exchange(target, requestBody(Method.discover, {}));
  if (discover.answer.kind === 'none') {
    const { response, error } = discover.record;
    if (!response)
      throw new BadInput(`no answer from ${target.url}: ${error} (is the server running?)`);
    if (response.status === 401)
      throw new BadInput(
        `${target.url} answered 401 Unauthorized: give a bearer token with --token`,
      );
    throw new BadInput(
      `${target.url} does not speak JSON-RPC: server/discover got ${discover.answer.why}${typeof response.body === 'string' ? `: ${response.body.slice(0, 120)}` : ''}`,
    );
  }
  const tools = await exchange(target, requestBody(Method.toolsList, {}));
  if (tools.answer.kind !== 'result' || !Array.isArray(tools.answer.result['tools'])) return [];
  return tools.answer.result['tools'].flatMap((tool: unknown) =>
    typeof tool === 'object' && tool !== null && 'name' in tool && typeof tool.name === 'string'
      ? [tool.name]
      : [],
  );
}

/** The tools to check with: those named, else this project's own where the server lists them. */
function chooseTools(options: Command['options'], listed: string[]): CheckOptions {
  const tool = options.tool ?? (listed.includes(DEFAULTS.tool) ? DEFAULTS.tool : undefined);
  if (tool === undefined)
    throw new BadInput(
      `name a tool the server runs as a task with --tool (it lists: ${listed.join(', ') || 'no tools'})`,
    );
  if (listed.length > 0 && !listed.includes(tool))
    throw new BadInput(`--tool ${tool} is not among the server's tools: ${listed.join(', ')}`);
  const fallback = (name: string) =>
    options.tool === undefined && listed.includes(name) ? name : undefined;
  const inputTool = options.inputTool ?? fallback(DEFAULTS.inputTool);
  const errorTool = options.errorTool ?? fallback(DEFAULTS.errorTool);
  return {
    ...options,
    tool,
    ...(inputTool !== undefined && { inputTool }),
    ...(errorTool !== undefined && { errorTool }),
  };
}

const MARK = { pass: 'pass', fail: 'FAIL', 'not-applicable': 'n/a ' } as const;
const SUITE_MARK = {
  SUCCESS: 'pass',
  FAILURE: 'FAIL',
  WARNING: 'warn',
  INFO: 'info',
  SKIPPED: 'skip',
} as const;

function compact(value: unknown, limit = 600): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} chars)` : text;
}

function exchangeLines(exchange: CheckExchange): string[] {
  const { request, response, error } = exchange;
  const headers = Object.entries(request.headers)
    .filter(([name]) => name.startsWith('mcp-') || name === 'authorization')
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');
  return [
    `> ${request.method} ${request.url}  (${headers || 'no Mcp-* headers'})`,
    `> ${compact(request.body)}`,
    response ? `< HTTP ${response.status}  ${compact(response.body)}` : `< no answer: ${error}`,
  ];
}

function printResult(result: CheckResult): void {
  console.log(`  ${MARK[result.verdict]}  ${result.rules.join(', ').padEnd(10)}  ${result.title}`);
  if (result.verdict === 'pass') return;
  console.log(`        ${result.detail}`);
  if (result.verdict !== 'fail') return;
  // The exchange the verdict rests on is the last one the check made.
  const last = result.exchanges.at(-1);
  if (last) for (const line of exchangeLines(last)) console.log(`        ${line}`);
}

async function runConformance(url: string): Promise<ConformanceResults> {
  const missing = missingSuiteFile();
  if (missing !== undefined) throw new BadInput(`missing ${missing}; run npm install`);
  console.log('\nOfficial conformance suite (tasks-* scenarios)');
  const checks: ConformanceResults['checks'][number][] = [];
  const erroredScenarios: { scenario: string; why: string }[] = [];
  for (const scenario of SCENARIOS) {
    const run = await runSuiteScenario(url, scenario);
    console.log(`  ${scenario}`);
    for (const check of run.checks) {
      checks.push({ scenario, ...check });
      console.log(`    ${SUITE_MARK[check.status]}  ${check.id}`);
      if (check.error !== undefined) console.log(`          ${check.error}`);
    }
    if (run.errored !== undefined) {
      erroredScenarios.push({ scenario, why: run.errored });
      console.log(`    ERROR  the scenario ${run.errored}`);
    }
  }
  return { checks, erroredScenarios };
}

async function main(): Promise<number> {
  const command = parseCommand(process.argv.slice(2));
  const listed = await preflight(command.target);
  const options = chooseTools(command.options, listed);
  const extra = [
    options.inputTool && `input tool ${options.inputTool}`,
    options.errorTool && `error tool ${options.errorTool}`,
  ].filter(Boolean);
  console.log(
    `check-server: ${command.target.url}, tool ${options.tool}${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`,
  );
  console.log('\nTasks checks (src/check)');
  const checked = await runServerChecks(command.target, options, printResult);
  let report: CheckReport = checked;
  if (command.conformance) {
    if (command.target.token !== undefined)
      console.log('  (the suite has no way to send a token: its scenarios run without one)');
    report = {
      ...checked,
      conformance: await runConformance(command.target.url),
      finishedAt: new Date().toISOString(),
    };
  }
  if (command.json !== undefined) await writeFile(command.json, reportToJson(report));
  if (command.markdown !== undefined) await writeFile(command.markdown, reportToMarkdown(report));
  const counts = countVerdicts(report.results);
  const suite = report.conformance && countConformance(report.conformance);
  console.log(
    `\ncheck-server: ${counts.pass} passed, ${counts.fail} failed, ${counts['not-applicable']} not applicable` +
      (suite && report.conformance
        ? `; conformance suite: ${suite.SUCCESS} passed, ${suite.FAILURE} failed (${suite.WARNING} warnings, ${suite.SKIPPED} skipped, ${report.conformance.erroredScenarios.length} scenarios did not run)`
        : ''),
  );
  return reportFailed(report) ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!(error instanceof BadInput)) throw error;
  console.error(`check-server: ${error.message}`);
  process.exitCode = 2;
}
