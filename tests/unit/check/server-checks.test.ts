/**
 * The server checks against real servers over real HTTP: the project's Node host (every check
 * passes) and the deliberately broken fixture (exactly the checks of the rules it breaks fail).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport, CheckResult } from '../../../src/check/check-report.ts';
import {
  runServerChecks,
  SERVER_CHECKS,
  type CheckOptions,
} from '../../../src/check/server-checks.ts';
import { startNodeHost, type NodeHost } from '../../../src/server/node-host.ts';
import {
  startBrokenTasksServer,
  type BrokenTasksServer,
} from '../../fixtures/broken-tasks-server.ts';
import { digestIds } from '../helpers/spec-citations.ts';

/** Our tools: a quick task, one asking two questions at once, one ending with isError. */
const OPTIONS: CheckOptions = {
  tool: 'slow_compute',
  arguments: { seconds: 1, pollIntervalMs: 100 },
  inputTool: 'multi_input',
  errorTool: 'failing_job',
};

/** The checks the broken fixture must fail, and no other. */
const BROKEN = [
  'no-task-without-extension',
  'required-capability-error',
  'mcp-name-missing',
  'mcp-name-wrong',
  'no-tasks-result',
];

function verdicts(report: CheckReport): Record<string, string> {
  return Object.fromEntries(report.results.map((r) => [r.id, r.verdict]));
}

let host: NodeHost;
let broken: BrokenTasksServer;
beforeAll(async () => {
  [host, broken] = await Promise.all([
    startNodeHost({ host: '127.0.0.1', port: 0 }),
    startBrokenTasksServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([host.close(), broken.close()]);
});

describe('the list of server checks', () => {
  it('has unique kebab-case ids, each naming rules the digest has', () => {
    const known = new Set(digestIds());
    const ids = SERVER_CHECKS.map((check) => check.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const check of SERVER_CHECKS) {
      expect(check.id).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
      expect(check.rules.length).toBeGreaterThan(0);
      expect(check.rules.filter((rule) => !known.has(rule))).toEqual([]);
    }
  });
});

describe('against the Node host', () => {
  it('T3, T4, T6, T7, T8, T11, T13, T15, T17, T19, T21: every check passes, each with the exchanges it was decided on', async () => {
    const seen: CheckResult[] = [];
    const report = await runServerChecks({ url: host.url, token: 'checker' }, OPTIONS, (result) =>
      seen.push(result),
    );
    expect(report.results.map((r) => r.id)).toEqual(SERVER_CHECKS.map((c) => c.id));
    expect(seen).toEqual(report.results);
    const notPassed = report.results.filter((r) => r.verdict !== 'pass');
    expect(notPassed.map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
    for (const result of report.results) expect(result.exchanges.length).toBeGreaterThan(0);
    // The token is sent, and never written down.
    expect(JSON.stringify(report)).not.toContain('checker');
    expect(report.server).toBe(host.url);
    expect(report.tool).toBe('slow_compute');
  });

  it('T11, T15: without an input tool or an error tool, their checks are not applicable and say why', async () => {
    const report = await runServerChecks(
      { url: host.url },
      { tool: OPTIONS.tool, arguments: OPTIONS.arguments },
    );
    const byId = verdicts(report);
    expect(byId['update-ignores-unknown-keys']).toBe('not-applicable');
    expect(byId['update-partial-answers']).toBe('not-applicable');
    expect(byId['is-error-completes']).toBe('not-applicable');
    // The list says beforehand which checks need which optional tool.
    const needing = SERVER_CHECKS.filter((check) => check.needs !== undefined).map((c) => c.id);
    expect(needing.sort()).toEqual(
      ['update-ignores-unknown-keys', 'update-partial-answers', 'is-error-completes'].sort(),
    );
    // slow_compute runs synchronously without the extension, so no tool shows -32021.
    expect(byId['required-capability-error']).toBe('not-applicable');
    const reasons = report.results.filter((r) => r.verdict === 'not-applicable');
    for (const result of reasons) expect(result.detail).toMatch(/named|tool/);
    expect(report.results.filter((r) => r.verdict === 'fail')).toEqual([]);
  });

  it('T7: a tool that answers synchronously leaves the task checks not applicable, not failed', async () => {
    const report = await runServerChecks(
      { url: host.url },
      { tool: 'greet', arguments: { name: 'x' } },
    );
    const byId = verdicts(report);
    expect(byId['create-task-result-shape']).toBe('not-applicable');
    expect(byId['get-right-after-create']).toBe('not-applicable');
    expect(byId['mcp-name-missing']).toBe('not-applicable');
    expect(byId['unknown-task-id']).toBe('pass');
    expect(report.results.filter((r) => r.verdict === 'fail').map((r) => r.id)).toEqual([]);
  });
});

describe('against the broken fixture', () => {
  it('T3, T19, T21: exactly the checks of the rules it breaks fail; every other passes or does not apply', async () => {
    const report = await runServerChecks({ url: broken.url }, OPTIONS);
    const failed = report.results.filter((r) => r.verdict === 'fail').map((r) => r.id);
    expect(failed.sort()).toEqual([...BROKEN].sort());
    const failure = report.results.find((r) => r.id === 'mcp-name-missing')!;
    // The failure shows the request as sent: no Mcp-Name header at all.
    expect(failure.exchanges.at(-1)?.request.headers).not.toHaveProperty('mcp-name');
    expect(failure.detail).toContain('expected -32020');
  });
});

describe('when the server cannot be reached', () => {
  it('every check fails with the reason in its exchange, and a stopped run returns what it decided', async () => {
    const gone = await startNodeHost({ host: '127.0.0.1', port: 0 });
    await gone.close();
    const report = await runServerChecks({ url: gone.url, timeoutMs: 2_000 }, OPTIONS);
    const discover = report.results[0]!;
    expect(discover.verdict).toBe('fail');
    expect(discover.exchanges[0]?.error).toMatch(/fetch failed|ECONNREFUSED/);
    expect(report.results.every((r) => r.verdict !== 'pass')).toBe(true);

    const stop = new AbortController();
    const partial = await runServerChecks(
      { url: host.url },
      OPTIONS,
      (result) => {
        if (result.id === 'get-right-after-create') stop.abort();
      },
      stop.signal,
    );
    expect(partial.results.map((r) => r.id)).toEqual(SERVER_CHECKS.slice(0, 3).map((c) => c.id));
  });
});
