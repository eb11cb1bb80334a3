/**
 * The grader's checks: each one a pure function over what one client sent
 * (its exchanges, read by exchange.ts, in arrival order) that passes, fails
 * with the requests that broke it, or was not run because the client did
 * nothing it could judge. Times are the grader's clock, so a test drives
 * them with made-up exchanges and no server.
 */
import { ErrorCode, Method } from '../protocol/constants.ts';
import { isTerminal } from '../protocol/task.ts';
import type { Reading } from './exchange.ts';
import { GraderTool } from './tool-names.ts';

export type CheckStatus = 'pass' | 'fail' | 'not-run';

export interface CheckOutcome {
  status: CheckStatus;
  /** One sentence: what was seen. */
  summary: string;
  /** The requests that broke the check (the first few), each in words with its `#seq`. */
  failures: string[];
}

export interface Check {
  id: string;
  title: string;
  /** The digest's rules it rests on (docs/tasks-2026-07-28.md). */
  ruleIds: readonly string[];
  /** What it means for a client, for the report and the README. */
  meaning: string;
  run(readings: readonly Reading[]): CheckOutcome;
}

/** How many failures a check lists; the summary counts them all. */
const LISTED_FAILURES = 5;

/**
 * How early a poll may arrive and still count as on time: timers fire late
 * or a little early, and a request's trip varies, so 10 % of the interval,
 * at most 50 ms. The page's own client keeps to it by construction (its
 * `pollSlackMs`: never sooner than the interval less this after an answer).
 */
export function pollTolerance(intervalMs: number): number {
  return Math.min(50, intervalMs * 0.1);
}

const TASK_METHODS = new Set<string>([Method.tasksGet, Method.tasksUpdate, Method.tasksCancel]);

const short = (taskId: string): string => (taskId.length > 10 ? `${taskId.slice(0, 8)}…` : taskId);

/** What a counting check saw: how many things it judged, the broken ones in words, and a pass in words. */
interface Tally {
  examined: number;
  failures: string[];
  passed: string;
}

/**
 * A check that judges a number of things (requests, polls, tasks): not run
 * when there was nothing to judge (`none` says what), else a pass, else a
 * fail counting the broken ones and listing the first few.
 */
function counted(none: string, tally: (readings: readonly Reading[]) => Tally): Check['run'] {
  return (readings) => {
    const { examined, failures, passed } = tally(readings);
    if (examined === 0) return { status: 'not-run', summary: none, failures: [] };
    if (failures.length === 0) return { status: 'pass', summary: passed, failures: [] };
    return {
      status: 'fail',
      summary: `${failures.length} of ${examined} broke it`,
      failures: failures.slice(0, LISTED_FAILURES),
    };
  };
}

/** Every task a client was told about, with the answers that reported on it, in answer order. */
function reportsByTask(readings: readonly Reading[]): Map<string, Reading[]> {
  const byTask = new Map<string, Reading[]>();
  for (const r of readings) {
    if (!r.reported || !r.record.answer) continue;
    const list = byTask.get(r.reported.taskId) ?? [];
    list.push(r);
    byTask.set(r.reported.taskId, list);
  }
  for (const list of byTask.values())
    list.sort((a, b) => (a.record.answer?.at ?? 0) - (b.record.answer?.at ?? 0));
  return byTask;
}

/**
 * When the client was first told a task had ended: a report of a terminal
 * status, or `-32602` to a request about it (deleted, expired, unknown: T13).
 */
function endsByTask(readings: readonly Reading[]): Map<string, Reading> {
  const ends = new Map<string, Reading>();
  const note = (taskId: string, r: Reading): void => {
    const known = ends.get(taskId);
    if (!known || (r.record.answer?.at ?? 0) < (known.record.answer?.at ?? 0)) ends.set(taskId, r);
  };
  for (const r of readings) {
    if (!r.record.answer) continue;
    if (r.reported && isTerminal(r.reported.status)) note(r.reported.taskId, r);
    else if (r.taskId !== undefined && r.errorCode === ErrorCode.InvalidParams) note(r.taskId, r);
  }
  return ends;
}

function tallyExtensionDeclared(readings: readonly Reading[]): Tally {
  const requests = readings.filter((r) => r.kind === 'request');
  const failures = requests
    .filter((r) => !r.declaresTasks)
    .map((r) => `#${r.record.seq} ${r.method ?? '?'} did not declare the extension`);
  return {
    examined: requests.length,
    failures,
    passed: `all ${requests.length} requests declared it`,
  };
}

function tallyMcpName(readings: readonly Reading[]): Tally {
  const taskRequests = readings.filter(
    (r) => r.kind === 'request' && r.method !== undefined && TASK_METHODS.has(r.method),
  );
  const failures: string[] = [];
  for (const r of taskRequests) {
    const { mcpName, mcpMethod, seq } = r.record;
    if (mcpName === undefined) failures.push(`#${seq} ${r.method}: no Mcp-Name header`);
    else if (mcpName !== r.taskId)
      failures.push(`#${seq} ${r.method}: Mcp-Name "${mcpName}" is not its taskId`);
    else if (mcpMethod !== r.method)
      failures.push(`#${seq} ${r.method}: Mcp-Method "${mcpMethod ?? ''}" is not its method`);
  }
  return {
    examined: taskRequests.length,
    failures,
    passed: `all ${taskRequests.length} tasks/* requests named their task`,
  };
}

function tallyPollInterval(readings: readonly Reading[]): Tally {
  const reports = reportsByTask(readings);
  const previous = new Map<string, number>();
  for (const [taskId, list] of reports) {
    const created = list.find((r) => r.method === Method.toolsCall);
    if (created?.record.answer) previous.set(taskId, created.record.answer.at);
  }
  const failures: string[] = [];
  let examined = 0;
  for (const poll of readings) {
    if (poll.kind !== 'request' || poll.method !== Method.tasksGet || poll.taskId === undefined)
      continue;
    const at = poll.record.at;
    const inForce = (reports.get(poll.taskId) ?? [])
      .filter((r) => (r.record.answer?.at ?? Infinity) <= at)
      .at(-1)?.reported?.pollIntervalMs;
    const since = previous.get(poll.taskId);
    previous.set(poll.taskId, at);
    if (inForce === undefined || since === undefined) continue;
    examined++;
    const gap = at - since;
    if (gap < inForce - pollTolerance(inForce))
      failures.push(
        `#${poll.record.seq} tasks/get of ${short(poll.taskId)} came ${Math.round(gap)} ms after the last, with ${inForce} ms in force`,
      );
  }
  return { examined, failures, passed: `all ${examined} polls kept to the interval` };
}

function tallyInputOnce(readings: readonly Reading[]): Tally {
  const updates = readings.filter((r) => r.kind === 'request' && r.method === Method.tasksUpdate);
  const seen = new Map<string, number>();
  const failures: string[] = [];
  for (const update of updates) {
    for (const key of update.answeredKeys) {
      const id = `${update.taskId ?? '?'} ${key}`;
      const first = seen.get(id);
      if (first === undefined) seen.set(id, update.record.seq);
      else
        failures.push(
          `#${update.record.seq} answered "${key}" of ${short(update.taskId ?? '?')} again (first in #${first})`,
        );
    }
  }
  return { examined: updates.length, failures, passed: `${seen.size} keys answered, each once` };
}

function tallyCancels(readings: readonly Reading[]): Tally {
  const cancels = readings.filter((r) => r.kind === 'request' && r.method === Method.tasksCancel);
  const notifications = readings.filter((r) => r.method === 'notifications/cancelled');
  return {
    examined: cancels.length + notifications.length,
    failures: notifications.map(
      (r) => `#${r.record.seq} sent notifications/cancelled instead of tasks/cancel`,
    ),
    passed: `${cancels.length} tasks/cancel, no notifications/cancelled`,
  };
}

function tallyStopsAtTerminal(readings: readonly Reading[]): Tally {
  const ends = endsByTask(readings);
  const failures: string[] = [];
  for (const r of readings) {
    if (r.kind !== 'request' || r.method !== Method.tasksGet || r.taskId === undefined) continue;
    const end = ends.get(r.taskId);
    if (end?.record.answer && r.record.at > end.record.answer.at)
      failures.push(
        `#${r.record.seq} polled ${short(r.taskId)} after #${end.record.seq} answered ${end.reported?.status ?? String(end.errorCode)}`,
      );
  }
  return { examined: ends.size, failures, passed: `${ends.size} tasks ended; none polled after` };
}

/** Not a count: one call of the restart tool, and its task followed to its end. */
function judgeResumeAfterRestart(readings: readonly Reading[]): CheckOutcome {
  const calls = readings.filter((r) => r.kind === 'request' && r.toolName === GraderTool.restart);
  const first = calls.find((r) => r.reported);
  if (!first?.reported)
    return { status: 'not-run', summary: `${GraderTool.restart} not called yet`, failures: [] };
  const taskId = first.reported.taskId;
  const end = endsByTask(readings).get(taskId);
  const endAt = end?.record.answer?.at ?? Infinity;
  const again = calls.filter(
    (r) => r !== first && r.record.at > first.record.at && r.record.at < endAt,
  );
  if (again.length > 0)
    return {
      status: 'fail',
      summary: `called ${GraderTool.restart} again while ${short(taskId)} was unfinished`,
      failures: again
        .slice(0, LISTED_FAILURES)
        .map(
          (r) =>
            `#${r.record.seq} called ${GraderTool.restart} again instead of resuming ${short(taskId)}`,
        ),
    };
  if (!end)
    return {
      status: 'not-run',
      summary: `${short(taskId)} is not finished yet: restart the client while it runs`,
      failures: [],
    };
  const connections = new Set(
    readings.filter((r) => r.taskId === taskId).map((r) => r.record.connection),
  ).size;
  return {
    status: 'pass',
    summary: `one call; ${short(taskId)} followed to ${end.reported?.status ?? 'its end'} over ${connections} connection${connections === 1 ? '' : 's'}`,
    failures: [],
  };
}

/** Every check, in the order the report lists them: one row each. */
export const CHECKS: readonly Check[] = [
  {
    id: 'extension-declared',
    title: 'The tasks extension declared on every request',
    ruleIds: ['T1', 'C2'],
    meaning:
      'Every request carries `io.modelcontextprotocol/tasks` in `_meta` `clientCapabilities.extensions`: nothing carries over between requests, so a request without it may not get or follow a task (T3, T4).',
    run: counted('no request yet', tallyExtensionDeclared),
  },
  {
    id: 'mcp-name',
    title: '`Mcp-Name` set to the taskId on every `tasks/*`',
    ruleIds: ['T19'],
    meaning:
      '`tasks/get`, `tasks/update` and `tasks/cancel` carry the header `Mcp-Name: <taskId>` (and `Mcp-Method`), so a load balancer can route them to where the task lives without reading the body.',
    run: counted('no tasks/* request yet', tallyMcpName),
  },
  {
    id: 'poll-interval',
    title: 'No poll sooner than the `pollIntervalMs` then in force',
    ruleIds: ['T12', 'T6'],
    meaning:
      "Each `tasks/get` of a task comes at least `pollIntervalMs` after the previous one (or after the `CreateTaskResult`), where the interval is the one of the latest report the client had been answered before it sent the poll: it may change mid-task. Tolerance: 10 % of the interval, at most 50 ms, for timers and the request's trip.",
    run: counted('no task polled yet', tallyPollInterval),
  },
  {
    id: 'input-once',
    title: 'Each input key answered once',
    ruleIds: ['T14', 'T15'],
    meaning:
      'Every poll repeats all outstanding `inputRequests`; the client answers each key once, in one `tasks/update` (several keys may be answered one at a time), and never again.',
    run: counted('no tasks/update yet', tallyInputOnce),
  },
  {
    id: 'cancel-by-tasks-cancel',
    title: '`tasks/cancel`, never `notifications/cancelled`',
    ruleIds: ['T17'],
    meaning:
      'A task is cancelled with `tasks/cancel {taskId}`; `notifications/cancelled` is never used for tasks (every tool here is a task). The ack proves nothing: the task may still end `completed`.',
    run: counted('nothing cancelled yet', tallyCancels),
  },
  {
    id: 'stops-at-terminal',
    title: 'Polling stops at a terminal status (or `-32602`)',
    ruleIds: ['T9', 'T13'],
    meaning:
      'Once a `tasks/get` answered `completed`, `failed` or `cancelled`, or a request about the task answered `-32602` (its TTL passed and it was deleted), the client polls that task no more: nothing leaves a terminal status, and a gone task is the end, not an error to retry.',
    run: counted('no task has ended yet', tallyStopsAtTerminal),
  },
  {
    id: 'resume-after-restart',
    title: 'After a restart, the same taskId resumed, the tool not called again',
    ruleIds: ['T12'],
    meaning: `Restart the client while \`${GraderTool.restart}\` runs: it must have kept the taskId durably and carry on polling it to the end, not call the tool again. The grader cannot see a restart, only this: one call, and that task followed to its end.`,
    run: judgeResumeAfterRestart,
  },
];
