/**
 * How a stored task looks on the wire: the flat handle of T7 and the
 * DetailedTask of T10. Only fields the spec defines are written, plus this
 * server's job progress under its own `_meta` key (src/protocol/job-progress.ts).
 */
import { JOB_PROGRESS_META, type JobProgress } from '../protocol/job-progress.ts';
import type { CreateTaskResult, DetailedTask, Task } from '../protocol/task.ts';
import type { TaskRecord } from './task-store.ts';

/** The ISO strings written lately, by epoch ms (oldest dropped first past {@link REMEMBERED_TIMES}). */
const isoOf = new Map<number, string>();
const REMEMBERED_TIMES = 4096;

/**
 * `new Date(ms).toISOString()`, remembered: every poll writes a task's two
 * times, and a task's `createdAt` never changes while its `lastUpdatedAt`
 * seldom does, so formatting them afresh was a tenth of the worker's time.
 * A time no Date can hold still throws, as it always did.
 */
function isoTime(ms: number): string {
  const known = isoOf.get(ms);
  if (known !== undefined) return known;
  const text = new Date(ms).toISOString();
  if (isoOf.size >= REMEMBERED_TIMES) isoOf.delete(isoOf.keys().next().value!);
  isoOf.set(ms, text);
  return text;
}

function taskFields(record: TaskRecord): Task {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
    createdAt: isoTime(record.createdAt),
    lastUpdatedAt: isoTime(record.lastUpdatedAt),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

/** T7: `{resultType: "task", ...Task}`, nothing nested. */
export function createTaskResult(record: TaskRecord): CreateTaskResult {
  return { resultType: 'task', ...taskFields(record) };
}

/** T10: status-specific fields only where the status calls for them. */
export function detailedTask(record: TaskRecord): DetailedTask {
  const task: DetailedTask = taskFields(record);
  // Durable jobs: the last checkpoint and take-overs, under this server's own `_meta` key.
  if (record.checkpoint || record.resumes) {
    const progress: JobProgress = {
      ...(record.checkpoint
        ? {
            checkpoint: {
              label: record.checkpoint.label,
              savedAt: new Date(record.checkpoint.savedAt).toISOString(),
            },
          }
        : {}),
      resumes: record.resumes ?? 0,
      ...(record.takeover ? { takeover: { ...record.takeover } } : {}),
    };
    task._meta = { [JOB_PROGRESS_META]: progress };
  }
  if (record.status === 'input_required')
    task.inputRequests = structuredClone(record.inputRequests);
  // The inlined result is the CallToolResult the call would have returned
  // synchronously (T10), and every result carries resultType (C4).
  if (record.status === 'completed' && record.result)
    task.result = { resultType: 'complete', ...structuredClone(record.result) };
  if (record.status === 'failed' && record.error) task.error = structuredClone(record.error);
  return task;
}
