/**
 * The Tasks extension's wire shapes (T6, T7, T10), as zod schemas so every
 * message from the other side is validated rather than cast.
 *
 * These are ours: `@modelcontextprotocol/core` exports a `TaskSchema`,
 * `TaskStatusSchema` and `CreateTaskResultSchema`, but they are the
 * deprecated 2025-11-25 shapes (`ttl`, `pollInterval`, the handle wrapped in
 * `{task}`), not the extension's 2026-07-28 ones (`ttlMs`, `pollIntervalMs`,
 * a flat handle with `resultType: "task"`). The tool result inside a
 * completed task and the error inside a failed one are the SDK's.
 */
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import { z } from 'zod';
import { RpcErrorSchema } from './jsonrpc.ts';

export { RpcErrorSchema, type RpcError } from './jsonrpc.ts';

export { CallToolResultSchema };
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

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
