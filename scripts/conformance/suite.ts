/**
 * The official conformance suite's tasks-* server scenarios, run one by one against a URL as
 * child processes, their printed checks read back. Shared by `npm run conformance` and
 * `npm run check-server`.
 *
 * The suite needs Node >= 22 (it imports `fs.globSync`), so it runs under the binary of the
 * `node@22` dev dependency. `--spec-version` is not passed: with it, extension scenarios are
 * skipped unless forced (the suite documents this in its CLI help).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..', '..');
export const NODE22 = resolve(ROOT, 'node_modules/node/bin/node');
export const CLI = resolve(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

export const SCENARIOS = [
  'tasks-capability-negotiation',
  'tasks-lifecycle',
  'tasks-wire-fields',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'tasks-mrtr-input',
  'tasks-mrtr-composition',
  'tasks-request-headers',
  'tasks-request-state-removal',
  'tasks-status-notifications',
] as const;

/** Longer than the suite's own 30 s scenario timeout, so its report wins. */
export const SCENARIO_DEADLINE_MS = 60_000;

export type CheckStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
export interface SuiteCheck {
  id: string;
  status: CheckStatus;
  description: string;
}
/** An entry of the "=== Failed Checks ===" block: it names the check by description, not id. */
export interface SuiteFailure {
  description: string;
  error: string;
}

// <ISO timestamp> [<check id, space-padded>] <STATUS> <description>
const CHECK_LINE = /^\S+\s+\[([^\]]+?)\s*\]\s+(SUCCESS|FAILURE|WARNING|INFO|SKIPPED)\b\s*(.*)$/;
// "  - <name>: <description>" then "    Error: <message>" in the "=== Failed Checks ===" block.
const FAILED_NAME = /^ {2}- [^:]+: (.*)$/;
const FAILED_ERROR = /^ {4}Error: (.*)$/;

/** The checks and failure reasons printed by one `conformance server` run. */
export function parseOutput(output: string): { checks: SuiteCheck[]; failures: SuiteFailure[] } {
  const checks: SuiteCheck[] = [];
  const failures: SuiteFailure[] = [];
  let lastDescription: string | undefined;
  for (const raw of output.split(/\r?\n/)) {
    const line = stripVTControlCharacters(raw);
    const check = CHECK_LINE.exec(line);
    if (check) {
      checks.push({
        id: check[1] ?? '',
        status: check[2] as CheckStatus,
        description: check[3] ?? '',
      });
      continue;
    }
    const name = FAILED_NAME.exec(line);
    if (name) lastDescription = name[1]?.trim();
    const error = FAILED_ERROR.exec(line);
    if (error && lastDescription !== undefined)
      failures.push({ description: lastDescription, error: error[1] ?? '' });
  }
  return { checks, failures };
}

export interface Run {
  code: number | null;
  output: string;
  timedOut: boolean;
}

export function runScenario(url: string, scenario: string): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(NODE22, [CLI, 'server', '--url', url, '--scenario', scenario], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, SCENARIO_DEADLINE_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      done({ code: null, output: `${output}\n${error.message}`, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output, timedOut });
    });
  });
}

/** What one scenario found: its checks, each failure's reason, and why it did not run, if so. */
export interface ScenarioRun {
  scenario: string;
  checks: (SuiteCheck & { error?: string })[];
  /** Set when the scenario did not really run: killed, printed nothing, or exited oddly. */
  errored?: string;
  output: string;
}

/** Runs one scenario and reads what it printed. */
export async function runSuiteScenario(url: string, scenario: string): Promise<ScenarioRun> {
  const run = await runScenario(url, scenario);
  const { checks, failures } = parseOutput(run.output);
  const withErrors = checks.map((check) => {
    const error = failures.find((f) => f.description === check.description.trim())?.error;
    return check.status === 'FAILURE' && error !== undefined ? { ...check, error } : check;
  });
  // A run that printed no checks, or exited non-zero without a failed check, did not really run.
  const failedChecks = checks.some((c) => c.status === 'FAILURE');
  const errored = run.timedOut
    ? `killed after ${SCENARIO_DEADLINE_MS} ms`
    : checks.length === 0
      ? 'printed no checks'
      : run.code !== 0 && !failedChecks
        ? `exited ${run.code} without a failed check`
        : undefined;
  return {
    scenario,
    checks: withErrors,
    output: stripVTControlCharacters(run.output),
    ...(errored !== undefined && { errored }),
  };
}

/** The suite's files, or the first one missing (then `npm install` is what is needed). */
export function missingSuiteFile(): string | undefined {
  return [NODE22, CLI].find((path) => !existsSync(path));
}
