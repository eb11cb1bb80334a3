/**
 * The grader's tools by name: the checks read what a client did with them
 * (grade-tools.ts defines what they do). Kept apart so the pure scoring
 * needs nothing of the server.
 */
export const GraderTool = {
  /** `pollIntervalMs` changes mid-task (T6, T12). */
  pollInterval: 'grade_poll_interval',
  /** Two input keys at once, to be answered one at a time (T14, T15). */
  twoInputs: 'grade_two_inputs',
  /** A task that ends `failed` (T10, T11). */
  failed: 'grade_failed_task',
  /** A cancel that ends `completed` (T17). */
  cancel: 'grade_cancel_completes',
  /** A TTL that passes, then `-32602` (T13). */
  ttl: 'grade_ttl_expires',
  /** A long task across which the client is restarted (T12). */
  restart: 'grade_restart_client',
} as const;
export type GraderTool = (typeof GraderTool)[keyof typeof GraderTool];

export const GRADER_TOOL_NAMES: readonly GraderTool[] = Object.values(GraderTool);
