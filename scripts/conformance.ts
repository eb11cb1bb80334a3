/**
 * `npm run conformance`: serves the playground over HTTP in this process and
 * runs the official conformance suite's ten tasks-* scenarios against it,
 * one by one. Prints every check, then a tally, and exits 1 when a check
 * failed or a scenario could not run.
 *
 * How the suite is run (Node 22, no `--spec-version`) is in conformance/suite.ts.
 *
 *   npm run conformance                  # one server, in this process, tasks in memory
 *   npm run conformance -- --cluster 3   # through the balancer of 3 nodes on PostgreSQL (npm run cluster)
 *   npm run conformance -- --url URL     # a server or balancer already running at URL
 */
import { parseArgs } from 'node:util';
import { startNodeHost } from '../src/server/node-host.ts';
import { startCluster } from './cluster/start-cluster.ts';
import {
  CLI,
  missingSuiteFile,
  NODE22,
  runSuiteScenario,
  SCENARIOS,
  type CheckStatus,
} from './conformance/suite.ts';

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
  const missing = missingSuiteFile();
  if (missing !== undefined) {
    console.error(`conformance: missing ${missing}; run npm install`);
    return 1;
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
      const run = await runSuiteScenario(target.url, scenario);
      console.log(`\n${scenario}`);
      for (const check of run.checks) {
        tally[check.status]++;
        console.log(`  ${MARK[check.status]}  ${check.id}`);
        if (check.error !== undefined) console.log(`        ${check.error}`);
      }
      if (run.errored) {
        errored.push(scenario);
        console.log(`  ERROR  scenario ${run.errored}; its output:`);
        for (const line of run.output.trimEnd().split('\n')) console.log(`        | ${line}`);
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
