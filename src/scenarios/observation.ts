/**
 * What a scenario can see of the playground at one moment: the real wire
 * messages, each followed task's machine state, the tools/call records, the
 * answers to raw probes, the network's fault log and what another tab
 * reported. Expectations are predicates over this, so they judge what
 * actually crossed the wire, never what the scenario meant to do.
 */
import type { WireRow } from '../client/wire-annotation.ts';
import type { FaultEvent } from '../net/fault-log.ts';
import { META, TASKS_EXTENSION } from '../protocol/constants.ts';
import type { CallToolResult, RpcError, TaskStatus } from '../protocol/task.ts';

/** One followed task: the server's last word and the client machine's state. */
export interface TaskView {
  taskId: string;
  toolName: string;
  /** What the server last reported (T6). */
  serverStatus: TaskStatus;
  statusMessage: string | undefined;
  /** The machine's final state once it stopped (`completed`, `failed`, `cancelled`, `expired`, `gone`, `forgotten`). */
  final: string | undefined;
  /** The machine's parallel regions while it runs (`lifecycle`, `input`, `cancel`, `link`). */
  regions: Record<string, string> | undefined;
  polls: number;
  pollIntervalMs: number;
  cancelRequested: boolean;
  /** Input request keys shown to the user and not yet answered (T14). */
  pendingInputKeys: string[];
  answeredKeys: string[];
  result: CallToolResult | undefined;
  error: RpcError | undefined;
  /** How many times a fresh worker took the job over. */
  resumes: number;
  /** The last take-over: runner ids (`node 3/…` on a cluster node) and the checkpoint carried on from. */
  takeover: { by: string; from?: string; checkpoint?: string } | undefined;
}

/** One tools/call the page made, and how it ended. */
export interface CallView {
  toolName: string;
  declared: boolean;
  outcome: 'pending' | 'input' | 'task' | 'result' | 'error';
  errorCode: number | undefined;
  result: CallToolResult | undefined;
}

/** The answer to a raw request a scenario sent (tasks/result, tools/list, another identity's tasks/get...). */
export interface ProbeView {
  label: string;
  method: string;
  /** Which connection it went over: `page`, or the name of one a scenario opened. */
  connection: string;
  state: 'pending' | 'result' | 'error';
  result: Record<string, unknown> | undefined;
  error: { code: number | undefined; message: string } | undefined;
}

/** What another tab of this browser reported after following a task by id (M5). */
export interface PeerReport {
  taskId: string;
  /** The status its own tasks/get saw, or undefined when it was refused. */
  status: TaskStatus | undefined;
  error: string | undefined;
}

export interface Observation {
  /** Epoch ms. */
  now: number;
  /** Wire rows since the run started, oldest first (other connections' rows carry `connection`). */
  wire: readonly ScenarioWireRow[];
  /** Tasks followed since the run started, oldest first. */
  tasks: readonly TaskView[];
  calls: readonly CallView[];
  probes: readonly ProbeView[];
  faults: readonly FaultEvent[];
  peers: readonly PeerReport[];
  /** Whether the page's client has a link open. */
  connected: boolean;
  /** Epoch ms this page was loaded: later than the run's start after a reload. */
  pageLoadedAt: number;
}

/** A wire row; `connection` names the client when it is not the page's own. */
export type ScenarioWireRow = WireRow;

/** Every wire row matching all the given fields (a field given as undefined matches nothing: no task yet, no rows). */
export function rowsWhere(
  obs: Observation,
  match: Partial<
    Pick<ScenarioWireRow, 'direction' | 'kind' | 'method' | 'taskId' | 'gist' | 'connection'>
  >,
): ScenarioWireRow[] {
  const fields = Object.entries(match);
  if (fields.some(([, value]) => value === undefined)) return [];
  return obs.wire.filter((row) =>
    fields.every(([key, value]) => row[key as keyof ScenarioWireRow] === value),
  );
}

/** The newest task of a tool this run followed (or the newest task at all). */
export function taskOf(obs: Observation, toolName?: string): TaskView | undefined {
  return obs.tasks.filter((t) => toolName === undefined || t.toolName === toolName).at(-1);
}

/** The cluster node that answered the tools/call creating the newest `toolName` task (T7). */
export function createdOn(obs: Observation, toolName: string): number | undefined {
  const taskId = taskOf(obs, toolName)?.taskId;
  return rowsWhere(obs, { direction: 'in', method: 'tools/call', kind: 'result', taskId }).at(-1)
    ?.node;
}

/** The cluster nodes that answered a tasks/get for `taskId`, in the order first seen. */
export function nodesAnswering(obs: Observation, taskId: string | undefined): number[] {
  const nodes = rowsWhere(obs, { direction: 'in', method: 'tasks/get', taskId }).flatMap((row) =>
    row.node === undefined ? [] : [row.node],
  );
  return [...new Set(nodes)];
}

/** The latest probe with this label. */
export function probeOf(obs: Observation, label: string): ProbeView | undefined {
  return obs.probes.filter((p) => p.label === label).at(-1);
}

/** The JSON-RPC error code of a wire row's message, if it is an error response. */
export function errorCodeOf(row: ScenarioWireRow): number | undefined {
  const error = (row.message as { error?: { code?: unknown } } | undefined)?.error;
  return typeof error?.code === 'number' ? error.code : undefined;
}

/**
 * A row in a few words, for "saw ...": `tools/call answered task working`,
 * `tasks/get answered error -32602`, `tasks/cancel sent on mallory`.
 */
export function describeRow(row: ScenarioWireRow): string {
  const on = row.connection ? ` on ${row.connection}` : '';
  const method = row.method ?? 'a reply to an unknown request';
  const sentOrReceived = row.direction === 'out' ? 'sent' : 'received';
  switch (row.kind) {
    case 'request':
      return `${method} ${sentOrReceived}${on}`;
    case 'notification':
      return `${method}${row.gist ? ` ${row.gist}` : ''} ${sentOrReceived}${on}`;
    case 'invalid':
      return `an invalid message ${sentOrReceived}${on}`;
    default:
      return `${method} answered ${row.gist || row.kind}${on}`;
  }
}

/** A task's state in words, for "saw ...": `working (client: polling)` or `ended completed`. */
export function describeTask(task: TaskView | undefined): string {
  if (!task) return 'no task followed yet';
  if (task.final !== undefined)
    return `the ${task.toolName} task ended ${task.final} (server said ${task.serverStatus})`;
  return `the ${task.toolName} task is ${task.serverStatus} (client ${task.regions?.['lifecycle'] ?? '?'})`;
}

/** A list of things in words, capped so an explanation stays one line. */
export function listed(items: readonly string[], none = 'nothing'): string {
  if (items.length === 0) return none;
  const shown = items.slice(0, 4).join('; ');
  return items.length > 4 ? `${shown}; and ${items.length - 4} more` : shown;
}

/** The request a response answers: the latest earlier request with its id on the same connection. */
export function requestFor(
  obs: Observation,
  response: ScenarioWireRow,
): ScenarioWireRow | undefined {
  const index = obs.wire.indexOf(response);
  return obs.wire
    .slice(0, index < 0 ? obs.wire.length : index)
    .findLast(
      (row) =>
        row.kind === 'request' &&
        row.direction !== response.direction &&
        row.id === response.id &&
        row.connection === response.connection,
    );
}

/** Whether a request row declared io.modelcontextprotocol/tasks in its `_meta` (T1). */
export function declaresTasks(request: ScenarioWireRow): boolean {
  const params = (request.message as { params?: { _meta?: Record<string, unknown> } }).params;
  const capabilities = params?._meta?.[META.clientCapabilities] as
    { extensions?: Record<string, unknown> } | undefined;
  return (
    capabilities?.extensions !== undefined &&
    Object.hasOwn(capabilities.extensions, TASKS_EXTENSION)
  );
}

/** A result row's `result` object, or undefined. */
export function resultOf(row: ScenarioWireRow): Record<string, unknown> | undefined {
  const result = (row.message as { result?: unknown }).result;
  return typeof result === 'object' && result !== null
    ? (result as Record<string, unknown>)
    : undefined;
}

/** A request row's `params` object, or undefined. */
export function paramsOf(row: ScenarioWireRow): Record<string, unknown> | undefined {
  const params = (row.message as { params?: unknown }).params;
  return typeof params === 'object' && params !== null
    ? (params as Record<string, unknown>)
    : undefined;
}

/** How the latest tools/call was answered, in the drill's words: a task handle, the result itself, or an error code. */
export function callAnswerKind(obs: Observation, toolName: string): string {
  const row = rowsWhere(obs, { direction: 'in', method: 'tools/call' }).findLast(
    (r) =>
      r.kind === 'error' ||
      r.gist.startsWith('task') ||
      r.gist === 'complete' ||
      r.gist === 'isError',
  );
  if (!row) return 'no answer';
  if (row.kind === 'error') return `error ${row.gist.replace('error ', '')}`;
  return row.gist.startsWith('task') ? 'a task handle' : `the ${toolName} result itself`;
}
