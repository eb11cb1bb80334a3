/**
 * What a tool is, to this server: a description for `tools/list`, a way to
 * check its arguments, how it may run (T2, T3), and the job itself.
 */
import type { z } from 'zod';
import type { CallToolResult, InputRequest } from '../protocol/task.ts';

/**
 * How a tool may run. There is no per-tool flag on the wire (T2, M2): this is
 * the server's own decision, made per request from what the client declared.
 * - `sync`: always answers inline with a `CallToolResult`.
 * - `task`: a task when the request declares the extension, inline otherwise.
 * - `task-required`: a task when the request declares the extension, and
 *   `-32021` otherwise (T3): this server's choice for the tool, not a rule of the spec (T2).
 */
export type Execution = 'sync' | 'task' | 'task-required';

/** What a running job can do. The same context serves a task and an inline run. */
export interface JobContext<Args> {
  readonly args: Args;
  /** Aborted when the task is cancelled (T17) or expires (T13). A job may ignore it. */
  readonly signal: AbortSignal;
  /** Answers to the tool's `preTaskInput` requests (T16), empty when it has none. */
  readonly preTaskInput: Record<string, unknown>;
  /** True when the job runs as a task, false when it answers one request inline. */
  readonly asTask: boolean;
  /** Publishes progress as the task's `statusMessage`. */
  report(statusMessage: string): Promise<void>;
  /**
   * Changes the poll interval the task suggests from now on (T6, T12): a
   * client must keep to the interval of the latest report it read. Does
   * nothing in an inline run.
   */
  suggestPollInterval(pollIntervalMs: number): Promise<void>;
  /** Waits; rejects with {@link JobCancelled} if the signal aborts first. */
  sleep(ms: number): Promise<void>;
  /** Same as sleep, but keeps going when cancelled: for jobs that ignore cancellation. */
  sleepThroughCancel(ms: number): Promise<void>;
  /**
   * Moves the task to `input_required` with these requests and resolves
   * with every answer once all keys are answered (T14, T15). Keys must be
   * new for this task's whole life. Only possible when running as a task.
   */
  askInput(requests: Record<string, InputRequest>): Promise<Record<string, unknown>>;
  /**
   * What the job's last {@link checkpoint} saved, when a fresh worker resumes
   * it; undefined on a first run. Written by an earlier run, maybe of an older
   * version of the tool: parse it, never cast it.
   */
  readonly resumeFrom: unknown;
  /**
   * Saves progress (plain data) so that a fresh worker can carry the job on
   * from here; `label` says what is done and is shown on the task. Does
   * nothing in an inline run.
   */
  checkpoint(data: unknown, label: string): Promise<void>;
}

export interface ToolDefinition<Schema extends z.ZodType = z.ZodType> {
  name: string;
  title?: string;
  description: string;
  /** Checks and types the arguments; a failure becomes an `isError` result. */
  args: Schema;
  execution: Execution;
  /**
   * Input the tool needs before a task can even be created (T16): asked with
   * the core multi-round-trip flow (`resultType: "input_required"` on the
   * `tools/call` itself), and handed to the job as `preTaskInput`.
   */
  preTaskInput?: Record<string, InputRequest>;
  /** Overrides of the server defaults for this tool's tasks (T6, T13). */
  ttlMs?: number | null;
  /** The poll interval its tasks suggest (T12): fixed, or chosen from the call's arguments. */
  pollIntervalMs?: number | ((args: z.infer<Schema>) => number);
  /** How long this tool's expired tasks stay visible as `failed` before deletion (T13); the server default otherwise. */
  purgeAfterMs?: number;
  /**
   * Whether a fresh worker may run the job again, from its last checkpoint,
   * after the worker running it stopped. Opt-in: running a job twice is only
   * safe when it was written for it. A task whose job cannot resume ends by
   * its TTL (T13), and says so in `statusMessage`.
   */
  resumable?: boolean;
  run(ctx: JobContext<z.infer<Schema>>): Promise<CallToolResult>;
}

/** Lets tools be listed in one array whatever their argument types. */
export function defineTool<Schema extends z.ZodType>(tool: ToolDefinition<Schema>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/** Thrown by a job that ends because of cancellation: the task ends `cancelled`. */
export class JobCancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'JobCancelled';
  }
}

/**
 * Thrown by a job to end with a JSON-RPC error: the task ends `failed` with
 * this `error` (T11). A tool's own failure is a result with `isError` instead.
 */
export class JobProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JobProtocolError';
  }
}

/** A text result, the shape most tools answer with. */
export function textResult(text: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
}

/**
 * An input request asking for one line of text (C10): form-mode
 * `elicitation/create` with a single required string field, `title` its
 * label (the field's name unless given).
 */
export function textQuestion(message: string, field: string, title = field): InputRequest {
  return {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message,
      requestedSchema: {
        type: 'object',
        properties: { [field]: { type: 'string', title } },
        required: [field],
      },
    },
  };
}
