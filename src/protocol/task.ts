/**
 * The Tasks extension's wire shapes (T6, T7, T10), as zod schemas so every
 * message from the other side is validated rather than cast.
 */
import { z } from 'zod';

export const TASK_STATUSES = [
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
] as const;
export const TaskStatusSchema = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

export const TERMINAL_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/** T9: nothing leaves `completed`, `failed` or `cancelled`. */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** A JSON-RPC error object, as carried by a `failed` task (T10) or an error response. */
export const RpcErrorSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type RpcError = z.infer<typeof RpcErrorSchema>;

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'ISO 8601 date-time');

/** T6: the fields every task carries. */
export const TaskSchema = z.looseObject({
  taskId: z.string().min(1),
  status: TaskStatusSchema,
  statusMessage: z.string().optional(),
  createdAt: isoDate,
  lastUpdatedAt: isoDate,
  ttlMs: z.number().int().positive().nullable(),
  pollIntervalMs: z.number().int().positive().optional(),
});
export type Task = z.infer<typeof TaskSchema>;

/** A server-to-client request embedded in `inputRequests` (T14), e.g. `elicitation/create` (C10). */
export const InputRequestSchema = z.looseObject({
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
});
export type InputRequest = z.infer<typeof InputRequestSchema>;

/** The tool result a `completed` task inlines (T10, T11). */
export const CallToolResultSchema = z.looseObject({
  content: z.array(z.looseObject({ type: z.string() })),
  isError: z.boolean().optional(),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
});
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

/** T7: the flat handle that comes back from an asynchronous `tools/call`. */
export const CreateTaskResultSchema = TaskSchema.extend({ resultType: z.literal('task') });
export type CreateTaskResult = z.infer<typeof CreateTaskResultSchema>;

/** T10: what `tasks/get` (and `notifications/tasks`, T18) returns. */
export const DetailedTaskSchema = TaskSchema.extend({
  inputRequests: z.record(z.string(), InputRequestSchema).optional(),
  result: CallToolResultSchema.optional(),
  error: RpcErrorSchema.optional(),
});
export type DetailedTask = z.infer<typeof DetailedTaskSchema>;
