/**
 * "Check this server" as the page holds it: which tools the checks call (the user's choice,
 * since servers differ in which tools run as tasks; one preselected), a run of `src/check`'s
 * suite against the connected server with each result kept as it is decided, stop, and the
 * report's two exports. The suite is loaded on first use, so the first screen does not carry
 * it; tests give a fake one.
 */
import { z } from 'zod';
import {
  reportToJson,
  reportToMarkdown,
  type CheckReport,
  type CheckResult,
} from '../../check/check-report.ts';
import type { CheckOptions, CheckTarget } from '../../check/server-checks.ts';
import { errorMessage } from '../../protocol/error-message.ts';

/** What the page needs of `src/check/server-checks.ts`. */
export interface CheckSuite {
  readonly SERVER_CHECKS: readonly { id: string; rules: readonly string[]; title: string }[];
  runServerChecks(
    target: CheckTarget,
    options: CheckOptions,
    onResult?: (result: CheckResult) => void,
    signal?: AbortSignal,
  ): Promise<CheckReport>;
}

/** One check's line in the list: its result once decided, `running` for the next one, else `waiting`. */
export interface CheckRow {
  readonly id: string;
  readonly rules: readonly string[];
  readonly title: string;
  readonly state: 'waiting' | 'running' | 'stopped' | CheckResult['verdict'];
  readonly result: CheckResult | undefined;
}

/** A file to hand to the browser as a download. */
export interface ReportFile {
  readonly name: string;
  readonly type: string;
  readonly text: string;
}

export interface ServerCheckOptions {
  /** The server the page is connected to; its token is sent, never written to a report. */
  target: { url: string; token?: string | undefined };
  /** The server's tools from `tools/list`, and the tools the page has seen run as tasks. */
  tools: () => readonly { name: string; description?: string | undefined }[];
  taskTools?: () => readonly string[];
  /** The suite; by default `src/check/server-checks.ts`, loaded when first needed. */
  load?: () => Promise<CheckSuite>;
}

/** Tools of the project's own server that fit each role, tried after what the page has seen. */
const KNOWN = { tool: ['slow_compute'], inputTool: ['multi_input'], errorTool: ['failing_job'] };

export class ServerCheck {
  readonly target: ServerCheckOptions['target'];
  /** The checked tool, one that runs as a task; '' until one is chosen. */
  tool = $state('');
  /** Its arguments, as JSON text. */
  argumentsText = $state('{}');
  /** A tool asking for two inputs at once (T15), or '' for none: its checks are then n/a. */
  inputTool = $state('');
  /** A tool whose task ends with `isError` (T11), or '' for none. */
  errorTool = $state('');
  /** Why the run could not start or stopped short (bad arguments, the suite not loading). */
  error = $state<string>();
  running = $state(false);
  /** Decided so far, in running order. */
  results = $state.raw<readonly CheckResult[]>([]);
  report = $state.raw<CheckReport>();
  #suite = $state.raw<CheckSuite>();
  #stoppedShort = $state(false);
  #abort: AbortController | undefined;
  readonly #options: ServerCheckOptions;

  constructor(options: ServerCheckOptions) {
    this.#options = options;
    this.target = options.target;
  }

  get tools(): readonly { name: string; description?: string | undefined }[] {
    return this.#options.tools();
  }

  /** Every check, with what is known of it now; empty until the suite is loaded. */
  get rows(): readonly CheckRow[] {
    const decided = new Map(this.results.map((result) => [result.id, result]));
    let next = true;
    return (this.#suite?.SERVER_CHECKS ?? []).map((check) => {
      const result = decided.get(check.id);
      let state: CheckRow['state'];
      if (result) state = result.verdict;
      else if (this.running && next) {
        state = 'running';
        next = false;
      } else state = this.#stoppedShort ? 'stopped' : 'waiting';
      return { ...check, state, result };
    });
  }

  /** How many passed, failed, did not apply, of how many. */
  get counts(): { pass: number; fail: number; notApplicable: number; total: number } {
    const count = (verdict: CheckResult['verdict']): number =>
      this.results.filter((result) => result.verdict === verdict).length;
    return {
      pass: count('pass'),
      fail: count('fail'),
      notApplicable: count('not-applicable'),
      total: this.#suite?.SERVER_CHECKS.length ?? 0,
    };
  }

  /** Loads the suite (to list the checks) and fills in the tools not chosen yet. */
  async prepare(): Promise<void> {
    try {
      this.#suite ??= await (this.#options.load ?? loadSuite)();
    } catch (error) {
      this.error = `The checks could not be loaded: ${errorMessage(error)}`;
      return;
    }
    this.preselect();
  }

  /** Picks a tool for each empty role: one the page has seen run as a task, else a known name. */
  preselect(): void {
    const names = this.tools.map((tool) => tool.name);
    const listed = (candidates: readonly string[]): string =>
      candidates.find((name) => names.includes(name)) ?? '';
    if (!names.includes(this.tool))
      this.tool =
        listed([...(this.#options.taskTools?.() ?? []), ...KNOWN.tool]) ||
        this.tools.find((tool) => /\btasks?\b/i.test(tool.description ?? ''))?.name ||
        (names[0] ?? '');
    if (this.inputTool && !names.includes(this.inputTool)) this.inputTool = '';
    this.inputTool ||= listed(KNOWN.inputTool);
    if (this.errorTool && !names.includes(this.errorTool)) this.errorTool = '';
    this.errorTool ||= listed(KNOWN.errorTool);
  }

  /** Runs every check against the server; each result shows as it is decided. */
  async run(): Promise<void> {
    if (this.running) return;
    const args = parseArguments(this.argumentsText);
    if ('error' in args) {
      this.error = args.error;
      return;
    }
    await this.prepare();
    const suite = this.#suite;
    if (!suite) return;
    if (!this.tool) {
      this.error = 'Choose the tool to check: one the server runs as a task (tools/list is empty).';
      return;
    }
    this.error = undefined;
    this.results = [];
    this.report = undefined;
    this.#stoppedShort = false;
    this.running = true;
    const abort = new AbortController();
    this.#abort = abort;
    const options: CheckOptions = {
      tool: this.tool,
      arguments: args.value,
      ...(this.inputTool ? { inputTool: this.inputTool } : {}),
      ...(this.errorTool ? { errorTool: this.errorTool } : {}),
    };
    try {
      const report = await suite.runServerChecks(
        { url: this.target.url, ...(this.target.token ? { token: this.target.token } : {}) },
        options,
        (result) => {
          if (!abort.signal.aborted) this.results = [...this.results, result];
        },
        abort.signal,
      );
      this.report = report;
      this.#stoppedShort = abort.signal.aborted;
    } catch (error) {
      this.error = `The checks stopped: ${errorMessage(error)}`;
      this.#stoppedShort = true;
    } finally {
      this.running = false;
      this.#abort = undefined;
    }
  }

  /** Stops the run after the check under way; what was decided is kept and exported. */
  stop(): void {
    this.#abort?.abort();
  }

  /** The report as a JSON or Markdown file named after the server and the time it finished. */
  file(format: 'json' | 'markdown'): ReportFile | undefined {
    const report = this.report;
    if (!report) return undefined;
    const host = new URL(report.server).host.replace(/[^\w.-]+/g, '_');
    const stamp = report.finishedAt.replace(/[:.]/g, '-');
    return format === 'json'
      ? {
          name: `check-${host}-${stamp}.json`,
          type: 'application/json',
          text: reportToJson(report),
        }
      : {
          name: `check-${host}-${stamp}.md`,
          type: 'text/markdown',
          text: reportToMarkdown(report),
        };
  }
}

function loadSuite(): Promise<CheckSuite> {
  return import('../../check/server-checks.ts');
}

/** The arguments text as a JSON object, or why it is not one. */
export function parseArguments(
  text: string,
): { value: Record<string, unknown> } | { error: string } {
  if (!text.trim()) return { value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `The arguments are not JSON: ${errorMessage(error)}` };
  }
  const object = z.record(z.string(), z.unknown()).safeParse(value);
  return object.success
    ? { value: object.data }
    : { error: 'The arguments must be a JSON object, e.g. {"seconds": 2}.' };
}
