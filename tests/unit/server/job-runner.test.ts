/**
 * What the job runner costs its store, on a fake clock: however many jobs
 * run, one heartbeat renews all their leases in one store write, and jobs
 * writing at the same moment share one write. Lease rules stay as they were:
 * a job whose lease another runner took is abandoned alone, and a stopped
 * runner writes nothing more, not even what it had queued.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { JobRunner } from '../../../src/server/job-runner.ts';
import { MemoryTaskStore } from '../../../src/server/memory-task-store.ts';
import type { TaskRecord, TaskUpdate } from '../../../src/server/task-store.ts';
import {
  defineTool,
  JobCancelled,
  textResult,
  type ToolDefinition,
} from '../../../src/server/tool.ts';
import { record } from './task-store-contract.ts';

const HEARTBEAT_MS = 1000;
const LEASE_MS = 3000;
const JOBS = 10;

/** A memory store that counts its write calls (each one a transaction in IndexedDB). */
class CountingStore extends MemoryTaskStore {
  writes = 0;
  /** While set, writes wait for it, as they would behind a slow transaction. */
  hold: Promise<void> | undefined;
  /** How long a write takes, on the fake clock. */
  writeMs = 0;
  override async update(taskId: string, update: TaskUpdate): Promise<TaskRecord | undefined> {
    await this.#write();
    return super.update(taskId, update);
  }
  override async updateMany(
    taskIds: readonly string[],
    update: TaskUpdate,
  ): Promise<(TaskRecord | undefined)[]> {
    await this.#write();
    return super.updateMany(taskIds, update);
  }
  async #write(): Promise<void> {
    this.writes++;
    await this.hold;
    if (this.writeMs > 0) await new Promise((resolve) => setTimeout(resolve, this.writeMs));
  }
}

/** Waits until cancelled or abandoned, writing nothing: only heartbeats touch the store. */
const idle = defineTool({
  name: 'idle',
  description: 'waits',
  args: z.object({}),
  execution: 'task-required',
  run: ({ signal }) =>
    new Promise((_, reject) =>
      signal.addEventListener('abort', () => reject(new JobCancelled()), { once: true }),
    ),
});

/** slow_compute's pattern: report, sleep a second, save a checkpoint, for ever. */
const stepping = defineTool({
  name: 'stepping',
  description: 'steps',
  args: z.object({}),
  execution: 'task-required',
  run: async ({ report, sleep, checkpoint }) => {
    for (let i = 0; ; i++) {
      await report(`step ${i}`);
      await sleep(1000);
      await checkpoint({ stepsDone: i + 1 }, `${i + 1} done`);
    }
    return textResult('never');
  },
});

/** Reports once, half a second in, then waits like `idle`. */
const reportsOnce = defineTool({
  ...idle,
  name: 'reports_once',
  run: async (context) => {
    await context.sleep(500);
    await context.report('half way');
    return idle.run(context);
  },
});

let store: CountingStore;
let runner: JobRunner;

async function startJobs(tool: ToolDefinition, count = JOBS): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `task-${i}`);
  for (const id of ids) {
    const created = record(id, { lease: runner.newLease() });
    await store.create(created);
    runner.start(created, tool, {});
  }
  await vi.advanceTimersByTimeAsync(0);
  return ids;
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  store = new CountingStore();
  runner = new JobRunner(store, {
    now: () => Date.now(),
    heartbeatMs: HEARTBEAT_MS,
    leaseMs: LEASE_MS,
    holder: 'runner-1',
  });
});

afterEach(async () => {
  runner.stop();
  await vi.advanceTimersByTimeAsync(0);
  vi.useRealTimers();
});

describe('JobRunner heartbeat and writes', () => {
  it(`renews the leases of ${JOBS} jobs with one store write per heartbeat, not one per job`, async () => {
    const ids = await startJobs(idle);
    store.writes = 0;
    await vi.advanceTimersByTimeAsync(3 * HEARTBEAT_MS);
    expect(store.writes).toBe(3);
    for (const id of ids)
      expect((await store.get(id))?.lease).toEqual({
        holder: 'runner-1',
        expiresAt: Date.now() + LEASE_MS,
      });
  });

  it(`${JOBS} jobs reporting and saving checkpoints each second share store writes`, async () => {
    await startJobs(stepping);
    store.writeMs = 20;
    store.writes = 0;
    await vi.advanceTimersByTimeAsync(5 * HEARTBEAT_MS);
    // A write takes 20 ms: the first job to wake writes alone, the others' writes wait for it and
    // go together; with the heartbeat's own write, a few writes a second. A write each made 130.
    expect(store.writes).toBeLessThanOrEqual(5 * 5);
    // Every job kept stepping: 1 s of sleep and two short waits a step.
    const steps = (await store.all()).map(
      (r) => z.object({ stepsDone: z.number() }).parse(r.checkpoint?.data).stepsDone,
    );
    expect(steps).toEqual(Array.from({ length: JOBS }, () => 4));
  });

  it('a heartbeat that comes while a slow renewal is being stored is not lost: the next renewal starts the moment it ends', async () => {
    await startJobs(idle, 3);
    store.writeMs = 1500;
    store.writes = 0;
    // Heartbeats at 1 s and 2 s; the first renewal is stored at 2.5 s, and the second starts then, not at the 3 s heartbeat.
    await vi.advanceTimersByTimeAsync(2600);
    expect(store.writes).toBe(2);
  });

  it("renews leases in a write of its own, not queued behind a job's write being stored", async () => {
    const [id] = await startJobs(reportsOnce, 1);
    store.writes = 0;
    let release = (): void => {};
    store.hold = new Promise((resolve) => (release = resolve));
    // The job's report is being stored (held) when the heartbeat comes: the renewal goes at once.
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
    expect(store.writes).toBe(2);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(await store.get(id!)).toMatchObject({
      statusMessage: 'half way',
      lease: { expiresAt: Date.now() + LEASE_MS },
    });
  });

  it('a job whose lease another runner took is abandoned, alone; the others keep being renewed', async () => {
    const [kept, taken] = await startJobs(idle, 2);
    const thief = { holder: 'runner-2', expiresAt: Date.now() + 60_000 };
    await store.update(taken!, (r) => ({ ...r, lease: thief }));
    await vi.advanceTimersByTimeAsync(2 * HEARTBEAT_MS);
    expect(runner.isRunning(taken!)).toBe(false);
    expect(runner.isRunning(kept!)).toBe(true);
    // The abandoned job wrote no outcome over the new holder's task.
    expect(await store.get(taken!)).toMatchObject({ status: 'working', lease: thief });
    expect((await store.get(kept!))?.lease).toEqual({
      holder: 'runner-1',
      expiresAt: Date.now() + LEASE_MS,
    });
  });

  it('a heartbeat that finds the task gone abandons its job', async () => {
    const [gone] = await startJobs(idle, 1);
    await store.delete(gone!);
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
    expect(runner.isRunning(gone!)).toBe(false);
  });

  it('a stopped runner writes nothing more, not even writes it had queued', async () => {
    const [id] = await startJobs(stepping, 1);
    let release = (): void => {};
    store.hold = new Promise((resolve) => (release = resolve));
    // The heartbeat and the first checkpoint fall due: asked for, not yet stored.
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
    const before = await store.get(id!);
    runner.stop();
    release();
    await vi.advanceTimersByTimeAsync(5 * HEARTBEAT_MS);
    expect(before?.checkpoint).toBeUndefined();
    expect(await store.get(id!)).toEqual(before);
    expect(runner.runningCount).toBe(0);
  });

  it('keeps no timer when no job runs', async () => {
    await startJobs(idle, 1);
    expect(vi.getTimerCount()).toBe(1);
    runner.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
