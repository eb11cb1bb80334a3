/**
 * How a running task job asks for input (T14): the requests are written to
 * the task, and the job waits until the store shows every key answered, then
 * takes the answers in one write. Answers arrive as store writes, possibly
 * from another node, so waiting is on the runner's store subscription.
 */
import type { InputRequest } from '../protocol/task.ts';
import { allAnswered, requestInput, takeResponses } from './task-lifecycle.ts';
import { rememberTaken } from './task-durability.ts';
import type { TaskRecord, TaskUpdate } from './task-store.ts';
import { JobCancelled } from './tool.ts';

/** What asking for input needs of the runner running the job. */
export interface InputAsker {
  /** Writes to the task only while the runner holds its lease (undefined otherwise). */
  write(taskId: string, change: TaskUpdate): Promise<TaskRecord | undefined>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  now(): number;
}

/**
 * Asks for `requests` and resolves with every answer, or rejects with
 * {@link JobCancelled} once `signal` aborts. `waiters` is the job's set of
 * listeners to its task's writes; `issuedBefore` holds the keys an earlier
 * run of a resumed job already issued, which are waited for, not issued again.
 */
export async function askInput(
  runner: InputAsker,
  taskId: string,
  requests: Record<string, InputRequest>,
  signal: AbortSignal,
  waiters: Set<(record: TaskRecord) => void>,
  issuedBefore: ReadonlySet<string>,
): Promise<Record<string, unknown>> {
  if (signal.aborted) throw new JobCancelled();
  // A resumed job asks again what an earlier run asked: wait for those keys, never issue them twice (T14).
  const fresh = Object.fromEntries(
    Object.entries(requests).filter(([key]) => !issuedBefore.has(key)),
  );
  const current =
    Object.keys(fresh).length > 0
      ? await runner.write(taskId, (r) => requestInput(r, fresh, runner.now()))
      : await runner.get(taskId);
  // Answers an earlier run already took come back from the record.
  const taken = current?.takenResponses ?? {};
  const takenBefore = Object.fromEntries(
    Object.keys(requests)
      .filter((key) => Object.hasOwn(taken, key))
      .map((key) => [key, taken[key]]),
  );
  const keys = Object.keys(requests).filter((key) => !Object.hasOwn(takenBefore, key));
  if (keys.length === 0) return takenBefore;
  return new Promise((resolve, reject) => {
    let settled = false;
    const onAbort = (): void => {
      if (settled) return;
      settled = true;
      waiters.delete(check);
      reject(new JobCancelled());
    };
    const check = (record: TaskRecord): void => {
      if (settled || !allAnswered(record, keys)) return;
      settled = true;
      waiters.delete(check);
      signal.removeEventListener('abort', onAbort);
      const answers = Object.fromEntries(keys.map((key) => [key, record.inputResponses[key]]));
      runner
        .write(taskId, (r) => rememberTaken(takeResponses(r, keys, runner.now()), answers))
        .then(() => resolve({ ...takenBefore, ...answers }), reject);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    waiters.add(check);
    if (current) check(current);
  });
}
