/**
 * `npm run check-server` as a whole, run as a child process: bad input exits 2 in plain words,
 * and on our server and on the broken fixture the headless checks agree with the official
 * conformance suite wherever both check the same thing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../../src/check/check-report.ts';
import { startNodeHost, type NodeHost } from '../../../src/server/node-host.ts';
import {
  startBrokenTasksServer,
  type BrokenTasksServer,
} from '../../fixtures/broken-tasks-server.ts';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'check-server-test-'));

/** Our checks and the suite's checks of the same rule: where both look, they must agree. */
const SAME_RULE: Record<string, readonly string[]> = {
  'discover-declares-extension': ['tasks-extension-advertised'],
  'create-task-result-shape': ['sep-2663-result-type-task-on-create', 'tasks-wire-field-renames'],
  'get-right-after-create': ['sep-2663-durable-create-strong-consistency'],
  'no-task-without-extension': ['sep-2663-server-rejects-undeclared-client'],
  'required-capability-error': [
    'sep-2663-server-returns-missing-capability-when-required',
    'sep-2663-server-returns-missing-capability-data-shape',
  ],
  'task-methods-need-extension': ['sep-2663-tasks-methods-non-declaring'],
  'mcp-name-wrong': ['sep-2663-server-rejects-mismatched-mcp-name-on-tasks-get'],
  'unknown-task-id': ['sep-2663-tasks-get-invalid-task-id-32602'],
  'no-tasks-result': ['sep-2663-tasks-result-removed-method-not-found'],
  'no-tasks-list': ['tasks-removed-tasks-list'],
  'update-partial-answers': ['tasks-mrtr-partial-fulfillment'],
  'cancel-acknowledged': ['sep-2663-cancel-ack-empty-result'],
  'is-error-completes': ['sep-2663-tool-error-uses-completed-status'],
};

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function checkServer(args: string[]): Promise<Finished> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/check-server.ts', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** A server that answers every request with `status` and `body`: not an MCP server. */
async function answering(
  status: number,
  type: string,
  body: string,
): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
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
  rmSync(scratch, { recursive: true, force: true });
});

describe('check-server: bad input', { timeout: 120_000 }, () => {
  it('exits 2 in plain words: not http(s), no URL, a server that is down, HTML, a 401', async () => {
    const ftp = await checkServer(['ftp://127.0.0.1/mcp']);
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toContain('is not http(s)');

    const none = await checkServer([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: npm run check-server');

    const down = await startNodeHost({ host: '127.0.0.1', port: 0 });
    await down.close();
    const refused = await checkServer([down.url, '--skip-conformance']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/no answer from .*is the server running/);

    const html = await answering(200, 'text/html', '<!doctype html><p>Welcome</p>');
    const unauthorized = await answering(401, 'application/json', '{"error":"token"}');
    try {
      const page = await checkServer([html.url, '--skip-conformance']);
      expect(page.code).toBe(2);
      expect(page.stderr).toContain('does not speak JSON-RPC');
      expect(page.stderr).toContain('<!doctype html>');
      const locked = await checkServer([unauthorized.url, '--skip-conformance']);
      expect(locked.code).toBe(2);
      expect(locked.stderr).toContain('401 Unauthorized: give a bearer token with --token');
    } finally {
      html.server.close();
      unauthorized.server.close();
    }

    const unknownTool = await checkServer([
      host.url,
      '--tool',
      'no_such_tool',
      '--skip-conformance',
    ]);
    expect(unknownTool.code).toBe(2);
    expect(unknownTool.stderr).toContain('is not among the server');
  });
});

/** Runs check-server with the suite and reads back its JSON report. */
async function fullRun(url: string, name: string): Promise<{ run: Finished; report: CheckReport }> {
  const json = join(scratch, `${name}.json`);
  const markdown = join(scratch, `${name}.md`);
  const run = await checkServer([url, '--json', json, '--markdown', markdown]);
  expect(run.stderr).toBe('');
  expect(readFileSync(markdown, 'utf8')).toContain('## Official conformance suite');
  return { run, report: JSON.parse(readFileSync(json, 'utf8')) as CheckReport };
}

/** For each rule both check: whether ours failed, and whether the suite did. */
function sideBySide(report: CheckReport): { id: string; ours: boolean; suite: boolean }[] {
  const suiteChecks = report.conformance?.checks ?? [];
  return Object.entries(SAME_RULE).map(([id, theirs]) => {
    const ours = report.results.find((result) => result.id === id);
    expect(ours, id).toBeDefined();
    const matching = suiteChecks.filter((check) => theirs.includes(check.id));
    expect(matching.length, `the suite's ${theirs.join(', ')}`).toBeGreaterThan(0);
    return {
      id,
      ours: ours?.verdict === 'fail',
      suite: matching.some((check) => check.status === 'FAILURE'),
    };
  });
}

describe('check-server: agrees with the official suite', { timeout: 900_000 }, () => {
  it('T1, T3, T6, T8, T13, T17, T19, T21: on our server both are green, and it exits 0', async () => {
    const { run, report } = await fullRun(host.url, 'ours');
    expect(report.results.filter((r) => r.verdict !== 'pass').map((r) => r.id)).toEqual([]);
    expect(report.conformance?.erroredScenarios).toEqual([]);
    expect(report.conformance?.checks.filter((c) => c.status === 'FAILURE')).toEqual([]);
    expect(sideBySide(report).filter((pair) => pair.ours || pair.suite)).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /check-server: 16 passed, 0 failed, 0 not applicable; conformance suite: \d+ passed, 0 failed/,
    );
  });

  it('T3, T19, T21: on the broken fixture both are red where both look, and it exits 1', async () => {
    const { run, report } = await fullRun(broken.url, 'broken');
    const pairs = sideBySide(report);
    expect(pairs.filter((pair) => pair.ours !== pair.suite)).toEqual([]);
    expect(
      pairs
        .filter((pair) => pair.ours)
        .map((pair) => pair.id)
        .sort(),
    ).toEqual(
      [
        'no-task-without-extension',
        'required-capability-error',
        'mcp-name-wrong',
        'no-tasks-result',
      ].sort(),
    );
    expect(run.code).toBe(1);
    // A failure is printed with the exchange it rests on.
    expect(run.stdout).toMatch(/FAIL {2}T19, C7 .*Mcp-Name[\s\S]*?> POST /);
  });
});
