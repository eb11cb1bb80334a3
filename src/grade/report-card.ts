/**
 * The report card: every recorded exchange grouped by client (bearer
 * identity, else `clientInfo`), each client scored by every check. Pure:
 * the same records give the same card, whenever it is asked for.
 */
import { ErrorCode, Method } from '../protocol/constants.ts';
import { CHECKS, type CheckStatus } from './checks.ts';
import { readExchange, type Reading, type RecordedExchange } from './exchange.ts';
import { GRADER_TOOL_NAMES } from './tool-names.ts';

export interface CheckResult {
  id: string;
  title: string;
  ruleIds: readonly string[];
  status: CheckStatus;
  summary: string;
  failures: string[];
}

/** What one client did with one grader tool. */
export interface ToolUse {
  tool: string;
  calls: number;
  /** Each task it made, with the last thing the client was told of it. */
  tasks: { taskId: string; last: string }[];
}

export interface ClientReport {
  client: string;
  requests: number;
  passed: number;
  failed: number;
  /** Every check passed: none failed and none is left to run. */
  fullMarks: boolean;
  checks: CheckResult[];
  tools: ToolUse[];
}

export interface ReportCard {
  /** When the card was made (ms, the grader's clock). */
  at: number;
  checkCount: number;
  clients: ClientReport[];
}

function toolUse(readings: readonly Reading[]): ToolUse[] {
  return GRADER_TOOL_NAMES.map((tool) => {
    const calls = readings.filter((r) => r.kind === 'request' && r.toolName === tool);
    const tasks = calls.flatMap((call) => {
      const taskId = call.reported?.taskId;
      if (taskId === undefined) return [];
      const about = readings
        .filter((r) => r.record.answer && (r.taskId === taskId || r.reported?.taskId === taskId))
        .sort((x, y) => (x.record.answer?.at ?? 0) - (y.record.answer?.at ?? 0));
      const lastReport = about.filter((r) => r.reported).at(-1)?.reported?.status ?? 'nothing';
      const lastAnswer = about.at(-1);
      const last =
        lastAnswer?.errorCode === ErrorCode.InvalidParams
          ? 'gone (-32602)'
          : lastAnswer?.reported
            ? lastAnswer.reported.status
            : lastAnswer?.method === Method.tasksCancel
              ? `cancel acknowledged, not polled after (last seen: ${lastReport})`
              : `last seen: ${lastReport}`;
      return [{ taskId, last }];
    });
    return { tool, calls: calls.length, tasks };
  });
}

/** Scores one client's readings (in arrival order). */
export function scoreClient(client: string, readings: readonly Reading[]): ClientReport {
  const checks = CHECKS.map((check) => {
    const { status, summary, failures } = check.run(readings);
    return { id: check.id, title: check.title, ruleIds: check.ruleIds, status, summary, failures };
  });
  const passed = checks.filter((c) => c.status === 'pass').length;
  return {
    client,
    requests: readings.filter((r) => r.kind !== 'other').length,
    passed,
    failed: checks.filter((c) => c.status === 'fail').length,
    fullMarks: passed === checks.length,
    checks,
    tools: toolUse(readings),
  };
}

/** The whole card: one report per client, in the order they first came. */
export function reportCard(records: readonly RecordedExchange[], at: number): ReportCard {
  const byClient = new Map<string, Reading[]>();
  for (const record of [...records].sort((a, b) => a.seq - b.seq)) {
    const reading = readExchange(record);
    const list = byClient.get(reading.client) ?? [];
    list.push(reading);
    byClient.set(reading.client, list);
  }
  return {
    at,
    checkCount: CHECKS.length,
    clients: [...byClient].map(([client, readings]) => scoreClient(client, readings)),
  };
}
