/**
 * What the grader records of each HTTP request a client sends it, and how
 * the checks read a record. Recorded as it arrived (headers, the parsed
 * body, times on the grader's clock) and read here through the protocol's
 * own schemas: nothing a client sent is trusted to have any shape.
 */
import { z } from 'zod';
import { META, Method } from '../protocol/constants.ts';
import { declaresTasks } from '../protocol/envelope.ts';
import { parseMessage } from '../protocol/jsonrpc.ts';
import { TaskStatusSchema, type TaskStatus } from '../protocol/task.ts';

/** One HTTP request to the grader's MCP endpoint, and its answer once sent. */
export interface RecordedExchange {
  /** Arrival order, from 1. */
  seq: number;
  /** When the request arrived (ms, the grader's clock). */
  at: number;
  /** Which TCP connection carried it (numbered from 1 as they open). */
  connection: number;
  /** The bearer token of its `Authorization` header, when it had one. */
  bearer?: string;
  /** Its `Mcp-Method` and `Mcp-Name` headers (T19), as sent. */
  mcpMethod?: string;
  mcpName?: string;
  /** The body, parsed as JSON; undefined when it was not JSON. */
  body: unknown;
  answer?: RecordedAnswer;
}

/** The grader's answer to one request, recorded just before it was written. */
export interface RecordedAnswer {
  at: number;
  httpStatus: number;
  /** The JSON body; undefined for a stream (a `subscriptions/listen`) or a body that is not JSON. */
  body: unknown;
}

/** What a task report in an answer says, as far as the checks need it. */
export interface TaskReport {
  taskId: string;
  status: TaskStatus;
  pollIntervalMs?: number;
}

/** A recorded exchange as the checks read it. */
export interface Reading {
  record: RecordedExchange;
  kind: 'request' | 'notification' | 'other';
  method?: string;
  /** Which client sent it: its bearer identity, else its `clientInfo`, else `anonymous`. */
  client: string;
  /** `params.taskId` of a `tasks/*` request. */
  taskId?: string;
  /** The tool a `tools/call` names. */
  toolName?: string;
  declaresTasks: boolean;
  /** The keys a `tasks/update` answers (T15). */
  answeredKeys: string[];
  /** The task its answer reports (a `CreateTaskResult` or a `tasks/get` result). */
  reported?: TaskReport;
  /** The JSON-RPC error code of its answer. */
  errorCode?: number;
}

const ClientInfoSchema = z.object({ name: z.string(), version: z.string() });
const ReportSchema = z.object({
  taskId: z.string().min(1),
  status: TaskStatusSchema,
  pollIntervalMs: z.number().int().positive().optional(),
});
const ErrorAnswerSchema = z.object({ error: z.object({ code: z.number().int() }) });

/** How a bearer token is shown: a short one (a name, as in the tests) whole, a long one cut. */
export function shownBearer(token: string): string {
  return token.length <= 16 ? token : `${token.slice(0, 4)}…${token.slice(-2)}`;
}

function objectOr(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Reads one recorded exchange. */
export function readExchange(record: RecordedExchange): Reading {
  const parsed = parseMessage(record.body);
  const message =
    parsed.kind === 'request' || parsed.kind === 'notification' ? parsed.message : undefined;
  const params = objectOr(message?.params);
  const meta = objectOr(params['_meta']);
  const info = ClientInfoSchema.safeParse(meta[META.clientInfo]);
  const client =
    record.bearer !== undefined
      ? `bearer ${shownBearer(record.bearer)}`
      : info.success
        ? `${info.data.name} ${info.data.version}`
        : 'anonymous';
  const method = message?.method;
  const taskId =
    method?.startsWith('tasks/') && typeof params['taskId'] === 'string'
      ? params['taskId']
      : undefined;
  const toolName =
    method === Method.toolsCall && typeof params['name'] === 'string' ? params['name'] : undefined;
  const answeredKeys =
    method === Method.tasksUpdate ? Object.keys(objectOr(params['inputResponses'])) : [];
  const reading: Reading = {
    record,
    kind: parsed.kind === 'request' || parsed.kind === 'notification' ? parsed.kind : 'other',
    client,
    declaresTasks: declaresTasks(meta[META.clientCapabilities]),
    answeredKeys,
    ...(method === undefined ? {} : { method }),
    ...(taskId === undefined ? {} : { taskId }),
    ...(toolName === undefined ? {} : { toolName }),
  };
  const answer = parseMessage(record.answer?.body);
  if (answer.kind === 'result' && (method === Method.toolsCall || method === Method.tasksGet)) {
    const report = ReportSchema.safeParse(answer.message.result);
    if (
      report.success &&
      (method === Method.tasksGet || answer.message.result['resultType'] === 'task')
    )
      reading.reported = report.data;
  } else if (answer.kind === 'error') {
    reading.errorCode = answer.message.error.code;
  } else {
    const error = ErrorAnswerSchema.safeParse(record.answer?.body);
    if (error.success) reading.errorCode = error.data.error.code;
  }
  return reading;
}
