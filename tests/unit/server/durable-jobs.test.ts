/**
 * Durable jobs, in Node under fake-indexeddb: two playground servers on one
 * database stand for two workers (two tabs, or a killed worker and its
 * successor). Checkpoints, leases with heartbeats, take-over of orphaned
 * jobs, and jobs that cannot resume (T13), on the simulated clock.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JOB_PROGRESS_META } from '../../../src/protocol/job-progress.ts';
import { IdbTaskStore } from '../../../src/server/idb/idb-task-store.ts';
import type { TaskRecord } from '../../../src/server/task-store.ts';
import { defineTool, textResult, type ToolDefinition } from '../../../src/server/tool.ts';
import { ALL_TOOLS } from '../../../src/server/tools/index.ts';
import { freshDb, kill, until, useDurableWorkers, worker } from '../helpers/durable-workers.ts';
import { pollUntil, terminal } from '../helpers/harness.ts';
import { simulate } from '../helpers/simulated-time.ts';

useDurableWorkers();

describe('durable jobs', () => {
  it("T12, M5: a killed worker's job finishes in a fresh one from its last checkpoint, visibly", () =>
    simulate(async () => {
      const db = freshDb();
      const first = await worker(db);
      const handle = await first.harness.client.request(
        'tools/call',
        { name: 'export_report', arguments: { stageMs: 80 } },
        { tasks: true },
      );
      const taskId = String(handle['taskId']);
      const saved = await until(
        () => first.store.get(taskId),
        (r) =>
          z.object({ stagesDone: z.number() }).safeParse(r?.checkpoint?.data).data?.stagesDone ===
          2,
      );
      kill(first);
      // A kill can land mid-stage: the third stage may have started, never finished.
      const stagesSaved = 2;
      expect(saved?.checkpoint?.label).toBe('2 of 6 stages done (joining customers)');

      const second = await worker(db);
      const messages: string[] = [];
      second.store.subscribe(
        (r) =>
          r.taskId === taskId &&
          r.statusMessage &&
          messages.at(-1) !== r.statusMessage &&
          messages.push(r.statusMessage),
      );
      const done = await pollUntil(second.harness.client, taskId, terminal);

      expect(done).toMatchObject({
        status: 'completed',
        result: {
          content: [{ type: 'text', text: expect.stringContaining('Exported Q3 report') }],
        },
      });
      // The fresh worker said where it took over, then ran only the stages not done.
      const resumedAt = messages.indexOf(
        'resumed by a fresh worker from checkpoint: 2 of 6 stages done (joining customers)',
      );
      expect(resumedAt).toBeGreaterThan(-1);
      expect(messages.slice(resumedAt + 1)).toEqual([
        `${Math.round((stagesSaved / 6) * 100)}%: aggregating by region`,
        '50%: rendering charts',
        '67%: writing PDF',
        '83%: uploading',
        '100%: done',
      ]);
      expect(done['_meta']).toMatchObject({
        [JOB_PROGRESS_META]: {
          checkpoint: { label: '6 of 6 stages done (uploading)', savedAt: expect.any(String) },
          resumes: 1,
        },
      });
      expect((await second.store.get(taskId))?.lease).toBeUndefined();
    }));

  it('T12: a take-over names the node that carried the job on, the one it took it from, and the checkpoint', () =>
    simulate(async () => {
      const db = freshDb();
      const named = (holder: string) => ({ runner: { leaseMs: 300, heartbeatMs: 100, holder } });
      const first = await worker(db, named('node 1/aaaa'));
      const handle = await first.harness.client.request(
        'tools/call',
        { name: 'export_report', arguments: { stageMs: 80 } },
        { tasks: true },
      );
      const taskId = String(handle['taskId']);
      await until(
        () => first.store.get(taskId),
        (r) => r?.checkpoint?.label === '2 of 6 stages done (joining customers)',
      );
      kill(first);
      const third = await worker(db, named('node 3/cccc'));
      const done = await pollUntil(third.harness.client, taskId, terminal);
      expect(done['_meta']).toMatchObject({
        [JOB_PROGRESS_META]: {
          resumes: 1,
          takeover: {
            by: 'node 3/cccc',
            from: 'node 1/aaaa',
            checkpoint: expect.stringMatching(/^[23] of 6 stages done/),
          },
        },
      });
    }));

  it("two runners never hold one lease: a live worker's heartbeat keeps the other off its job", () =>
    simulate(async () => {
      const db = freshDb();
      const first = await worker(db);
      const second = await worker(db);
      const holders = new Set<string>();
      const watch = (r: TaskRecord): void => {
        if (r.lease) holders.add(r.lease.holder);
      };
      first.store.subscribe(watch);
      second.store.subscribe(watch);
      const handle = await first.harness.client.request(
        'tools/call',
        { name: 'slow_compute', arguments: { seconds: 1.2 } },
        { tasks: true },
      );
      const done = await pollUntil(second.harness.client, String(handle['taskId']), terminal);
      expect(done['status']).toBe('completed');
      // Four lease lengths went by with both workers scanning for orphans every 50 ms.
      expect([...holders]).toEqual([first.harness.server.runner.holder]);
      expect(second.harness.server.runner.runningCount).toBe(0);
    }));

  it('two runners never hold one lease: racing to adopt one orphan, exactly one runs it', () =>
    simulate(async () => {
      const db = freshDb();
      let runs = 0;
      const counted = defineTool({
        name: 'counted',
        description: 'counts its runs',
        args: z.object({}),
        execution: 'task-required',
        resumable: true,
        run: async ({ sleep }) => {
          runs++;
          await sleep(200);
          return textResult('done');
        },
      });
      const tools: ToolDefinition[] = [...ALL_TOOLS, counted];
      const seed = await IdbTaskStore.open(db);
      const orphan: TaskRecord = {
        taskId: 'orphan',
        owner: 'x',
        toolName: 'counted',
        arguments: {},
        status: 'working',
        createdAt: Date.now(),
        lastUpdatedAt: Date.now(),
        ttlMs: 60_000,
        pollIntervalMs: 100,
        inputRequests: {},
        issuedInputKeys: [],
        inputResponses: {},
        cancelRequested: false,
        lease: { holder: 'dead-runner', expiresAt: Date.now() - 1 },
      };
      await seed.create(orphan);
      seed.close();

      const nodes = await Promise.all(
        Array.from({ length: 5 }, () => worker(db, { tools, adoptIntervalMs: 0 })),
      );
      await Promise.all(nodes.map((n) => n.harness.server.adoption.scan()));
      await Promise.all(nodes.map((n) => n.harness.server.runner.settled()));

      expect(runs).toBe(1);
      const final = await nodes[0]!.store.get('orphan');
      expect(final).toMatchObject({ status: 'completed', resumes: 1 });
    }));

  it("a runner that lost its lease (a stalled worker) writes nothing more: the new holder's outcome stands", () =>
    simulate(async () => {
      const db = freshDb();
      let runs = 0;
      const stubborn = defineTool({
        name: 'stubborn',
        description: 'ignores cancellation, reports its run number',
        args: z.object({}),
        execution: 'task-required',
        resumable: true,
        run: async ({ report, sleepThroughCancel }) => {
          const run = ++runs;
          for (let i = 0; i < 6; i++) {
            await report(`run ${run} step ${i}`);
            await sleepThroughCancel(100);
          }
          return textResult(`run ${run}`);
        },
      });
      const tools: ToolDefinition[] = [...ALL_TOOLS, stubborn];
      // The first worker's heartbeat never comes in time: it stalls.
      const stalled = await worker(db, {
        tools,
        runner: { leaseMs: 150, heartbeatMs: 60_000 },
        adoptIntervalMs: 0,
      });
      const handle = await stalled.harness.client.request(
        'tools/call',
        { name: 'stubborn', arguments: {} },
        { tasks: true },
      );
      const taskId = String(handle['taskId']);
      const healthy = await worker(db, { tools });
      const seen: string[] = [];
      healthy.store.subscribe(
        (r) => r.taskId === taskId && r.statusMessage && seen.push(r.statusMessage),
      );

      const done = await pollUntil(healthy.harness.client, taskId, terminal);
      await stalled.harness.server.runner.settled();

      expect(runs).toBe(2);
      expect(done).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: 'run 2' }] },
      });
      // Once the second run started, the first one's writes were all refused.
      const firstOfRun2 = seen.findIndex((m) => m.startsWith('run 2'));
      expect(firstOfRun2).toBeGreaterThan(-1);
      expect(seen.slice(firstOfRun2).filter((m) => m.startsWith('run 1'))).toEqual([]);
      expect((await healthy.store.get(taskId))?.status).toBe('completed');
    }));

  it('T17, C1: a cancel served by another worker reaches the job where it runs', () =>
    simulate(async () => {
      const db = freshDb();
      const runner = await worker(db);
      const other = await worker(db);
      const handle = await runner.harness.client.request(
        'tools/call',
        { name: 'slow_compute', arguments: { seconds: 30 } },
        { tasks: true },
      );
      const taskId = String(handle['taskId']);
      await other.harness.client.request('tasks/cancel', { taskId }, { tasks: true });
      const done = await pollUntil(other.harness.client, taskId, terminal, 3000);
      expect(done['status']).toBe('cancelled');
      expect(runner.harness.server.runner.runningCount).toBe(0);
      expect(other.harness.server.runner.runningCount).toBe(0);
    }));

  it('T14, T15: a job resumed while input_required waits for the same key; it is never issued twice', () =>
    simulate(async () => {
      const db = freshDb();
      const first = await worker(db);
      const handle = await first.harness.client.request(
        'tools/call',
        { name: 'deploy_service', arguments: {} },
        { tasks: true },
      );
      const taskId = String(handle['taskId']);
      await pollUntil(first.harness.client, taskId, (t) => t['status'] === 'input_required');
      kill(first);

      const second = await worker(db);
      await until(
        () => second.store.get(taskId),
        (r) => (r?.resumes ?? 0) === 1,
      );
      const waiting = await second.harness.client.request('tasks/get', { taskId }, { tasks: true });
      expect(Object.keys(waiting['inputRequests'] as object)).toEqual(['approve_rollout']);
      await second.harness.client.request(
        'tasks/update',
        {
          taskId,
          inputResponses: {
            approve_rollout: { action: 'accept', content: { approve: true, note: 'ok' } },
          },
        },
        { tasks: true },
      );
      const done = await pollUntil(second.harness.client, taskId, terminal);
      expect(done).toMatchObject({
        status: 'completed',
        result: { content: [{ text: 'Deployed checkout to all 10 production hosts. Note: ok' }] },
      });
      expect((await second.store.get(taskId))?.issuedInputKeys).toEqual(['approve_rollout']);
    }));

  it('T14: a job resumed after it took an answer gets that answer back instead of asking again', () =>
    simulate(async () => {
      const db = freshDb();
      const first = await worker(db);
      const handle = await first.harness.client.request(
        'tools/call',
        { name: 'deploy_service', arguments: {} },
        { tasks: true },
      );
      const taskId = String(handle['taskId']);
      await pollUntil(first.harness.client, taskId, (t) => t['status'] === 'input_required');
      await first.harness.client.request(
        'tasks/update',
        {
          taskId,
          inputResponses: { approve_rollout: { action: 'accept', content: { approve: true } } },
        },
        { tasks: true },
      );
      await until(
        () => first.store.get(taskId),
        (r) => z.object({ hostsLive: z.literal(5) }).safeParse(r?.checkpoint?.data).success,
      );
      kill(first);

      const second = await worker(db);
      const done = await pollUntil(second.harness.client, taskId, terminal);
      expect(done).toMatchObject({
        status: 'completed',
        result: { content: [{ text: 'Deployed checkout to all 10 production hosts.' }] },
      });
      const record = await second.store.get(taskId);
      expect(record?.issuedInputKeys).toEqual(['approve_rollout']);
      expect(record?.resumes).toBe(1);
    }));

  it('T13: a job that cannot resume says so, then ends by its TTL', () =>
    simulate(async () => {
      const db = freshDb();
      const first = await worker(db, { defaultTtlMs: 1500, sweepIntervalMs: 50 });
      const handle = await first.harness.client.request(
        'tools/call',
        { name: 'stubborn_migration', arguments: {} },
        { tasks: true },
      );
      const taskId = String(handle['taskId']);
      kill(first);

      const second = await worker(db, { defaultTtlMs: 1500, sweepIntervalMs: 50 });
      const parked = await pollUntil(second.harness.client, taskId, (t) =>
        String(t['statusMessage']).startsWith('Not resumed'),
      );
      expect(parked).toMatchObject({
        status: 'working',
        statusMessage: expect.stringMatching(
          /^Not resumed: stubborn_migration cannot carry on after the worker running it stopped\. It fails when its TTL passes, at .+ \(T13\)\.$/,
        ),
      });
      const done = await pollUntil(second.harness.client, taskId, terminal);
      expect(done).toMatchObject({
        status: 'failed',
        error: { code: -32603, message: expect.stringContaining('expired') },
      });
      await second.harness.server.runner.settled();
      expect(second.harness.server.runner.runningCount).toBe(0);
    }));

  it('T13: a job that cannot resume and has no TTL fails at once rather than stay working forever', () =>
    simulate(async () => {
      const db = freshDb();
      const first = await worker(db, { defaultTtlMs: null });
      const handle = await first.harness.client.request(
        'tools/call',
        { name: 'stubborn_migration', arguments: {} },
        { tasks: true },
      );
      kill(first);
      const second = await worker(db, { defaultTtlMs: null });
      const done = await pollUntil(second.harness.client, String(handle['taskId']), terminal);
      expect(done).toMatchObject({
        status: 'failed',
        error: {
          code: -32603,
          message: expect.stringMatching(/^Not resumed: stubborn_migration cannot carry on/),
        },
      });
    }));

  it('T17: a task cancelled while its worker was dead ends cancelled when a fresh worker adopts it', () =>
    simulate(async () => {
      const db = freshDb();
      const first = await worker(db);
      const handle = await first.harness.client.request(
        'tools/call',
        { name: 'slow_compute', arguments: { seconds: 30 } },
        { tasks: true },
      );
      const taskId = String(handle['taskId']);
      kill(first);
      const seed = await IdbTaskStore.open(db);
      await seed.update(taskId, (r) => ({ ...r, cancelRequested: true }));
      seed.close();
      const second = await worker(db);
      const done = await pollUntil(second.harness.client, taskId, terminal);
      expect(done['status']).toBe('cancelled');
      expect((await second.store.get(taskId))?.resumes).toBeUndefined();
    }));
});
