/**
 * The tasks checks of a server, in the order they run, and the run itself: what the page's
 * "Check this server" and `npm run check-server` both call. Each check is in the file of its
 * group; this one only lists and runs them.
 */
import {
  CheckRun,
  type CheckOptions,
  type OptionalTool,
  type ServerCheck,
} from './check-context.ts';
import type { CheckReport, CheckResult } from './check-report.ts';
import { updateIgnoresUnknownKeys, updatePartialAnswers } from './input-checks.ts';
import {
  discoverDeclaresExtension,
  noTaskWithoutExtension,
  requiredCapabilityError,
  taskMethodsNeedExtension,
} from './negotiation-checks.ts';
import type { CheckTarget } from './raw-exchange.ts';
import {
  cancelAcknowledged,
  createTaskResultShape,
  getRightAfterCreate,
  isErrorCompletes,
} from './task-checks.ts';
import {
  mcpMethodWrong,
  mcpNameMissing,
  mcpNameWrong,
  noTasksList,
  noTasksResult,
  unknownTaskIdRefused,
} from './wire-checks.ts';

export type { CheckOptions, OptionalTool } from './check-context.ts';
export type { CheckTarget } from './raw-exchange.ts';

/**
 * The checks in running order. The handle is read (T6, T7) and found (T8) first, before the
 * header checks ask about the same task and before anything could let it expire.
 */
const CHECKS: readonly ServerCheck[] = [
  discoverDeclaresExtension,
  createTaskResultShape,
  getRightAfterCreate,
  noTaskWithoutExtension,
  requiredCapabilityError,
  taskMethodsNeedExtension,
  mcpNameMissing,
  mcpNameWrong,
  mcpMethodWrong,
  unknownTaskIdRefused,
  noTasksResult,
  noTasksList,
  updateIgnoresUnknownKeys,
  updatePartialAnswers,
  cancelAcknowledged,
  isErrorCompletes,
];

/** Every check, in the order they run: what the page lists before running. */
export const SERVER_CHECKS: readonly {
  id: string;
  rules: readonly string[];
  title: string;
  /** Which optional tool of `CheckOptions` it needs (the page can say so before running). */
  needs?: readonly OptionalTool[];
}[] = CHECKS.map(({ id, rules, title, needs }) => ({
  id,
  rules,
  title,
  ...(needs !== undefined && { needs }),
}));

/**
 * Runs every check against the target; `onResult` sees each result as it is decided. Stopped
 * by `signal`, it returns the results decided so far. Tasks the checks created are cancelled
 * at the end, so none is left running on the server.
 */
export async function runServerChecks(
  target: CheckTarget,
  options: CheckOptions,
  onResult?: (result: CheckResult) => void,
  signal?: AbortSignal,
): Promise<CheckReport> {
  const startedAt = new Date().toISOString();
  const run = new CheckRun(target, options, signal);
  const results: CheckResult[] = [];
  for (const check of CHECKS) {
    if (signal?.aborted) break;
    const context = run.forCheck();
    let outcome;
    try {
      outcome = await check.run(context);
    } catch (error) {
      // A check that throws is a bug here, not the server's: it still gets a verdict and says so.
      outcome = {
        verdict: 'fail' as const,
        detail: `The check itself broke: ${error instanceof Error ? error.message : String(error)}.`,
      };
    }
    if (signal?.aborted) break;
    const result: CheckResult = {
      id: check.id,
      rules: check.rules,
      title: check.title,
      ...outcome,
      exchanges: context.exchanges,
    };
    results.push(result);
    onResult?.(result);
  }
  await run.cleanUp();
  return {
    server: target.url,
    tool: options.tool,
    startedAt,
    finishedAt: new Date().toISOString(),
    results,
  };
}
