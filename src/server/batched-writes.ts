/**
 * Group commit for a job runner's writes. Every write asked for while a
 * batch is being stored waits, and all of them go into the next batch as
 * one `updateMany`: one store transaction at a time, however many jobs run.
 *
 * Why: a hundred running jobs, each reporting and saving a checkpoint every
 * second in a transaction of its own (and renewing its lease in another),
 * queued 110 to 200 IndexedDB transactions a second. With a second tab
 * open, a write waited 2 to 4 s and a one-second step of `slow_compute`
 * took 3 to 7. A batch costs one transaction whatever it holds, so a write
 * waits about one batch.
 */
import type { TaskRecord, TaskStore, TaskUpdate } from './task-store.ts';

interface PendingWrite {
  taskId: string;
  change: TaskUpdate;
  resolve(record: TaskRecord | undefined): void;
  reject(error: unknown): void;
}

export class BatchedWrites {
  readonly #store: TaskStore;
  #pending: PendingWrite[] = [];
  #flushing = false;

  constructor(store: TaskStore) {
    this.#store = store;
  }

  /**
   * Applies `change` to the task in the next batch, after any change asked
   * for before it. Resolves with the task as stored when that batch ended
   * (undefined when there is no such task). A change that throws rejects
   * its own write only; a store failure rejects the whole batch.
   */
  write(taskId: string, change: TaskUpdate): Promise<TaskRecord | undefined> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ taskId, change, resolve, reject });
      if (this.#flushing) return;
      this.#flushing = true;
      // Started a microtask later, so writes asked for in the same turn (a heartbeat's
      // renewals, jobs waking from the same timer tick) share the first batch too.
      void Promise.resolve().then(() => this.#flush());
    });
  }

  async #flush(): Promise<void> {
    while (this.#pending.length > 0) await this.#commit(this.#pending.splice(0));
    this.#flushing = false;
  }

  async #commit(batch: PendingWrite[]): Promise<void> {
    const byTask = new Map<string, PendingWrite[]>();
    for (const write of batch)
      byTask.set(write.taskId, [...(byTask.get(write.taskId) ?? []), write]);
    const failed = new Map<PendingWrite, unknown>();
    let stored: (TaskRecord | undefined)[];
    try {
      stored = await this.#store.updateMany([...byTask.keys()], (record) => {
        let next = record;
        for (const write of byTask.get(record.taskId) ?? []) {
          try {
            next = write.change(next);
          } catch (error) {
            // One job's broken change must not cost the other jobs their writes.
            failed.set(write, error);
          }
        }
        return next;
      });
    } catch (error) {
      for (const write of batch) write.reject(error);
      return;
    }
    const byId = new Map([...byTask.keys()].map((taskId, i) => [taskId, stored[i]]));
    for (const write of batch) {
      if (failed.has(write)) write.reject(failed.get(write));
      else write.resolve(byId.get(write.taskId));
    }
  }
}
