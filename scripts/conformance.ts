/**
 * `npm run conformance`: serves the playground over HTTP in this process and
 * runs the official conformance suite's ten tasks-* scenarios against it,
 * one by one. Prints every check, then a tally, and exits 1 when a check
 * failed or a scenario could not run.
 *
 * The suite needs Node >= 22 (it imports `fs.globSync`), so it runs under
 * the binary of the `node@22` dev dependency. `--spec-version` is not passed:
 * with it, extension scenarios are skipped unless forced
 * (the suite documents this in its CLI help).
 *
 *   npm run conformance                  # one server, in this process, tasks in memory
 *   npm run conformance -- --cluster 3   # through the balancer of 3 nodes on PostgreSQL (npm run cluster)
 *   npm run conformance -- --url URL     # a server or balancer already running at URL
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { parseArgs } from 'node:util';
import { startNodeHost } from '../src/server/node-host.ts';
import { startCluster } from './cluster/start-cluster.ts';

const ROOT = resolve(import.meta.dirname, '..');
const NODE22 = resolve(ROOT, 'node_modules/node/bin/node');
const CLI = resolve(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

const SCENARIOS = [
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
const SCENARIO_DEADLINE_MS = 60_000;

type CheckStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
interface Check {
  id: string;
  status: CheckStatus;
  description: string;
}
/** An entry of the "=== Failed Checks ===" block: it names the check by description, not id. */
interface Failure {
  description: string;
  error: string;
}

// <ISO timestamp> [<check id, space-padded>] <STATUS> <description>
const CHECK_LINE = /^\S+\s+\[([^\]]+?)\s*\]\s+(SUCCESS|FAILURE|WARNING|INFO|SKIPPED)\b\s*(.*)$/;
// "  - <name>: <description>" then "    Error: <message>" in the "=== Failed Checks ===" block.
const FAILED_NAME = /^ {2}- [^:]+: (.*)$/;
const FAILED_ERROR = /^ {4}Error: (.*)$/;

/** The checks and failure reasons printed by one `conformance server` run. */
function parseOutput(output: string): { checks: Check[]; failures: Failure[] } {
  const checks: Check[] = [];
  const failures: Failure[] = [];
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

interface Run {
  code: number | null;
  output: string;
  timedOut: boolean;
}

function runScenario(url: string, scenario: string): Promise<Run> {
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

const MARK: Record<CheckStatus, string> = {
  SUCCESS: 'pass',
  FAILURE: 'FAIL',
  WARNING: 'warn',
  INFO: 'info',
  SKIPPED: 'skip',
};

/** What the scenarios run against: chosen by the command line. */
async function serveTarget(): Promise<
  { url: string; what: string; close: () => Promise<void> } | undefined
> {
  let values: { cluster?: string; url?: string };
  try {
    ({ values } = parseArgs({
      options: { cluster: { type: 'string' }, url: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  if (values.url !== undefined) return { url: values.url, what: values.url, close: async () => {} };
  if (values.cluster !== undefined) {
    const nodes = Number(values.cluster);
    if (!Number.isInteger(nodes) || nodes < 1 || nodes > 10) {
      console.error(`conformance: --cluster expects 1 to 10 nodes, not "${values.cluster}"`);
      return undefined;
    }
    const cluster = await startCluster({ nodes });
    return {
      url: cluster.url,
      what: `${cluster.url}, a round-robin balancer over ${nodes} nodes on PostgreSQL`,
      close: () => cluster.stop(),
    };
  }
  const host = await startNodeHost({ host: '127.0.0.1', port: 0 });
  return { url: host.url, what: `${host.url} (in this process)`, close: () => host.close() };
}

async function main(): Promise<number> {
  for (const path of [NODE22, CLI]) {
    if (!existsSync(path)) {
      console.error(`conformance: missing ${path}; run npm install`);
      return 1;
    }
  }
  const target = await serveTarget();
  if (!target) return 2;
  console.log(`conformance: against ${target.what}; suite ${CLI} on ${NODE22}`);
  const tally: Record<CheckStatus, number> = {
    SUCCESS: 0,
    FAILURE: 0,
    WARNING: 0,
    INFO: 0,
    SKIPPED: 0,
  };
  const errored: string[] = [];
  try {
    for (const scenario of SCENARIOS) {
      const run = await runScenario(target.url, scenario);
      const { checks, failures } = parseOutput(run.output);
      console.log(`\n${scenario}`);
      for (const check of checks) {
        tally[check.status]++;
        console.log(`  ${MARK[check.status]}  ${check.id}`);
        if (check.status === 'FAILURE') {
          for (const failure of failures.filter((f) => f.description === check.description.trim()))
            console.log(`        ${failure.error}`);
        }
      }
      // A run that printed no checks, or exited non-zero without a failed check, did not really run.
      const failedChecks = checks.some((c) => c.status === 'FAILURE');
      const reason = run.timedOut
        ? `killed after ${SCENARIO_DEADLINE_MS} ms`
        : checks.length === 0
          ? 'printed no checks'
          : run.code !== 0 && !failedChecks
            ? `exited ${run.code} without a failed check`
            : undefined;
      if (reason) {
        errored.push(scenario);
        console.log(`  ERROR  scenario ${reason}; its output:`);
        for (const line of stripVTControlCharacters(run.output).trimEnd().split('\n'))
          console.log(`        | ${line}`);
      }
    }
  } finally {
    await target.close();
  }
  const extras = [
    `${tally.SKIPPED} skipped`,
    `${tally.INFO} info`,
    `${tally.WARNING} warnings`,
    `${errored.length} scenarios errored`,
  ];
  console.log(
    `\nconformance: ${tally.SUCCESS} passed, ${tally.FAILURE} failed (${extras.join(', ')})`,
  );
  if (errored.length > 0) console.log(`conformance: errored scenarios: ${errored.join(', ')}`);
  console.log(`${tally.SUCCESS} passed, ${tally.FAILURE} failed`);
  return tally.FAILURE > 0 || errored.length > 0 ? 1 : 0;
}

process.exit(await main());
