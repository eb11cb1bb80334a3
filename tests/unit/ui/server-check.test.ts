/**
 * "Check this server" as the page holds it, driven with a fake suite: the checks listed before
 * the run, each result shown as it is decided (the next one `running`), stop, the tool chosen
 * for the user (what the page saw run as a task first), bad arguments refused before anything
 * is sent, and the report's JSON and Markdown files.
 */
import { describe, expect, it, vi } from 'vitest';
import type { CheckReport, CheckResult } from '../../../src/check/check-report.ts';
import {
  parseArguments,
  ServerCheck,
  type CheckSuite,
} from '../../../src/ui/state/server-check.svelte.ts';

const CHECKS = [
  { id: 'no-task-without-extension', rules: ['T3'], title: 'No task without the extension' },
  { id: 'mcp-name-missing', rules: ['T19'], title: 'Mcp-Name missing is -32020' },
  { id: 'no-tasks-result', rules: ['T21'], title: 'tasks/result is -32601' },
] as const;

const resultOf = (index: number, verdict: CheckResult['verdict']): CheckResult => ({
  ...CHECKS[index]!,
  verdict,
  detail: `${verdict} because`,
  exchanges: [],
});

/** A suite whose checks are decided one at a time, when the test says so. */
function steppedSuite() {
  let decide: (verdict: CheckResult['verdict']) => void = () => {};
  const calls: { options: unknown; target: unknown; signal: AbortSignal | undefined }[] = [];
  const suite: CheckSuite = {
    SERVER_CHECKS: CHECKS,
    async runServerChecks(target, options, onResult, signal) {
      calls.push({ options, target, signal });
      const results: CheckResult[] = [];
      for (let index = 0; index < CHECKS.length && !signal?.aborted; index++) {
        const verdict = await new Promise<CheckResult['verdict']>((resolve) => {
          decide = resolve;
          signal?.addEventListener('abort', () => resolve('pass'));
        });
        if (signal?.aborted) break;
        results.push(resultOf(index, verdict));
        onResult?.(results.at(-1)!);
      }
      return {
        server: target.url,
        tool: options.tool,
        startedAt: '2026-07-28T10:00:00.000Z',
        finishedAt: '2026-07-28T10:00:05.000Z',
        results,
      } satisfies CheckReport;
    },
  };
  return { suite, calls, decide: (verdict: CheckResult['verdict']) => decide(verdict) };
}

const TOOLS = [
  { name: 'greet', description: 'A plain synchronous tool' },
  { name: 'slow_compute' },
  { name: 'multi_input' },
  { name: 'failing_job' },
];

function checkWith(suite: CheckSuite, taskTools: string[] = []) {
  return new ServerCheck({
    target: { url: 'http://127.0.0.1:3939/mcp', token: 'alice' },
    tools: () => TOOLS,
    taskTools: () => taskTools,
    load: () => Promise.resolve(suite),
  });
}

describe('Check this server: the page state', () => {
  it('T3, T19, T21: lists every check, then shows each result as it is decided, the next one running', async () => {
    const { suite, calls, decide } = steppedSuite();
    const check = checkWith(suite);
    await check.prepare();
    expect(check.rows.map((row) => [row.id, row.state])).toEqual([
      ['no-task-without-extension', 'waiting'],
      ['mcp-name-missing', 'waiting'],
      ['no-tasks-result', 'waiting'],
    ]);

    const run = check.run();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(check.running).toBe(true);
    expect(check.rows.map((row) => row.state)).toEqual(['running', 'waiting', 'waiting']);
    decide('pass');
    await vi.waitFor(() => expect(check.results).toHaveLength(1));
    expect(check.rows.map((row) => row.state)).toEqual(['pass', 'running', 'waiting']);
    decide('fail');
    await vi.waitFor(() => expect(check.results).toHaveLength(2));
    decide('not-applicable');
    await run;

    expect(check.running).toBe(false);
    expect(check.rows.map((row) => row.state)).toEqual(['pass', 'fail', 'not-applicable']);
    expect(check.rows[1]!.result?.detail).toBe('fail because');
    expect(check.counts).toEqual({ pass: 1, fail: 1, notApplicable: 1, total: 3 });
    expect(check.report?.results).toHaveLength(3);
    // The token goes to the checks (they redact it in what they record); the tools chosen too.
    expect(calls[0]!.target).toEqual({ url: 'http://127.0.0.1:3939/mcp', token: 'alice' });
    expect(calls[0]!.options).toEqual({
      tool: 'slow_compute',
      arguments: {},
      inputTool: 'multi_input',
      errorTool: 'failing_job',
    });
  });

  it('stop: the run is aborted, what was decided stays, the rest reads "not run"', async () => {
    const { suite, calls, decide } = steppedSuite();
    const check = checkWith(suite);
    const run = check.run();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    decide('pass');
    await vi.waitFor(() => expect(check.results).toHaveLength(1));
    check.stop();
    await run;
    expect(calls[0]!.signal?.aborted).toBe(true);
    expect(check.rows.map((row) => row.state)).toEqual(['pass', 'stopped', 'stopped']);
    expect(check.report?.results).toHaveLength(1);
  });

  it('the checked tool: one the page saw run as a task first, else a known task tool, else a description, else the first', async () => {
    const { suite } = steppedSuite();
    const seen = checkWith(suite, ['greet_later', 'failing_job']);
    await seen.prepare();
    expect(seen.tool).toBe('failing_job');

    const known = checkWith(suite);
    await known.prepare();
    expect([known.tool, known.inputTool, known.errorTool]).toEqual([
      'slow_compute',
      'multi_input',
      'failing_job',
    ]);

    const described = new ServerCheck({
      target: { url: 'http://x.test/mcp' },
      tools: () => [{ name: 'a' }, { name: 'b', description: 'Runs as a task when asked' }],
      load: () => Promise.resolve(suite),
    });
    await described.prepare();
    expect([described.tool, described.inputTool, described.errorTool]).toEqual(['b', '', '']);

    const first = new ServerCheck({
      target: { url: 'http://x.test/mcp' },
      tools: () => [{ name: 'a' }, { name: 'b' }],
      load: () => Promise.resolve(suite),
    });
    await first.prepare();
    expect(first.tool).toBe('a');
    // A choice the user made is kept.
    first.tool = 'b';
    first.preselect();
    expect(first.tool).toBe('b');
  });

  it('bad input: arguments that are not a JSON object are refused in words, nothing is sent', async () => {
    const { suite, calls } = steppedSuite();
    const check = checkWith(suite);
    check.argumentsText = '{"seconds": 2';
    await check.run();
    expect(check.error).toMatch(/^The arguments are not JSON/);
    check.argumentsText = '[1, 2]';
    await check.run();
    expect(check.error).toBe('The arguments must be a JSON object, e.g. {"seconds": 2}.');
    expect(calls).toHaveLength(0);
    expect(parseArguments(' ')).toEqual({ value: {} });
    expect(parseArguments('{"seconds": 2}')).toEqual({ value: { seconds: 2 } });
  });

  it('bad input: a suite that cannot be loaded is said, and the page stays usable', async () => {
    const check = new ServerCheck({
      target: { url: 'http://x.test/mcp' },
      tools: () => TOOLS,
      load: () => Promise.reject(new Error('offline')),
    });
    check.tool = 'slow_compute';
    await check.run();
    expect(check.error).toBe('The checks could not be loaded: offline');
    expect(check.running).toBe(false);
  });

  it('the report exports as JSON and Markdown files named after the server and the time', async () => {
    const { suite, calls, decide } = steppedSuite();
    const check = checkWith(suite);
    expect(check.file('json')).toBeUndefined();
    const run = check.run();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    for (const [index, verdict] of (['pass', 'fail', 'pass'] as const).entries()) {
      decide(verdict);
      await vi.waitFor(() => expect(check.results).toHaveLength(index + 1));
    }
    await run;
    const json = check.file('json')!;
    expect(json.name).toBe('check-127.0.0.1_3939-2026-07-28T10-00-05-000Z.json');
    expect(json.type).toBe('application/json');
    expect(JSON.parse(json.text)).toMatchObject({
      server: 'http://127.0.0.1:3939/mcp',
      tool: 'slow_compute',
    });
    const markdown = check.file('markdown')!;
    expect(markdown.name).toMatch(/\.md$/);
    expect(markdown.text).toContain('Mcp-Name missing is -32020');
  });
});
