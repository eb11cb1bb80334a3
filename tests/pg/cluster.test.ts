/**
 * Three nodes on one PostgreSQL behind the round-robin balancer
 * (scripts/cluster): any node serves any task's polls (C1); the
 * `@modelcontextprotocol/ext-tasks` client, a requester nobody here wrote,
 * creates, polls, answers and cancels tasks across the nodes; and, last, when the
 * node running jobs is killed with SIGKILL mid-task, the others take its
 * jobs over through the lease, from their last checkpoint; every task
 * completes exactly once, no answer is asked for or taken twice (T14), and
 * no task is lost.
 */
import { createApplicationInputHandler } from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../scripts/cluster/start-cluster.ts';
import { PgTaskStore } from '../../src/server/pg/pg-task-store.ts';
import type { TaskRecord } from '../../src/server/task-store.ts';
import { freshDatabase } from './fresh-database.ts';
import { connectExtTasks, type ExtTasksLink } from '../unit/server/ext-tasks-link.ts';
import { mcp, startTask } from './mcp-http.ts';

let cluster: Cluster;
/** Watches the store from outside the nodes: every change any node makes, as NOTIFY reports it. */
let watcher: PgTaskStore;
const history = new Map<string, TaskRecord[]>();

beforeAll(async () => {
  const databaseUrl = await freshDatabase();
  cluster = await startCluster({ nodes: 3, databaseUrl });
  watcher = await PgTaskStore.open({ connectionString: databaseUrl, poolSize: 2 });
  watcher.subscribe((r) => history.set(r.taskId, [...(history.get(r.taskId) ?? []), r]));
}, 90_000);
afterAll(async () => {
  await watcher?.close();
  await cluster?.stop();
});

const stepsDone = (r: TaskRecord): number => {
  const data = r.checkpoint?.data;
  return typeof data === 'object' && data !== null && 'stepsDone' in data
    ? Number(data.stepsDone)
    : 0;
};

describe('a cluster of 3 nodes on PostgreSQL', () => {
  it('C1: one task is created on one node and polled on the others', async () => {
    const taskId = await startTask(cluster.url, 'slow_compute', { seconds: 0.5 });
    const servedBy = new Set<string>();
    await expect
      .poll(
        async () => {
          const reply = await mcp(cluster.url, 'tasks/get', { taskId });
          if (reply.servedBy) servedBy.add(reply.servedBy);
          return reply.result?.['status'];
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBe('completed');
    expect(servedBy.size).toBeGreaterThanOrEqual(2);
  });

  describe('driven by @modelcontextprotocol/ext-tasks through the balancer', () => {
    let link: ExtTasksLink | undefined;
    afterEach(async () => {
      await link?.close();
      link = undefined;
    });
    const nodesThatServed = (l: ExtTasksLink, taskId: string): Set<string | undefined> =>
      new Set(
        l.raw
          .filter(
            (e) => e.request.params?.['taskId'] === taskId || e.request.method === 'tools/call',
          )
          .map((e) => e.servedBy),
      );

    it('T14, T15 interop: creates confirm_delete on one node, polls and answers it on others, sees it completed', async () => {
      const asked: unknown[] = [];
      link = await connectExtTasks({
        endpoint: cluster.url,
        onInputRequest: createApplicationInputHandler({
          elicitation: async (request) => {
            asked.push(request.params['message']);
            return { action: 'accept', content: { confirm: true } };
          },
          sampling: async () => {
            throw new Error('confirm_delete asks for no sampling');
          },
          roots: async () => {
            throw new Error('confirm_delete asks for no roots');
          },
        }),
      });
      const execution = await link.session.callTool('confirm_delete', { filename: 'cluster.txt' });
      if (execution.kind !== 'task') throw new Error('expected a task');
      const taskId = execution.handle.taskId;
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('completed');
      expect(outcome.status === 'completed' ? outcome.result.content : outcome).toEqual([
        { type: 'text', text: 'Deleted cluster.txt' },
      ]);
      expect(asked).toEqual(['Delete cluster.txt?']);
      expect(link.raw.filter((e) => e.request.method === 'tasks/update')).toHaveLength(1);
      expect(nodesThatServed(link, taskId).size).toBeGreaterThanOrEqual(2);
      expect(link.errors).toEqual([]);
    });

    it('T17 interop: cancels on whichever node, and the job on its own node stops: cancelled', async () => {
      link = await connectExtTasks({ endpoint: cluster.url });
      const execution = await link.session.callTool('slow_compute', { seconds: 30 });
      if (execution.kind !== 'task') throw new Error('expected a task');
      const taskId = execution.handle.taskId;
      await link.session.cancelTask(taskId);
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('cancelled');
      // The server says so too, read through the balancer (30 s of work cannot have completed).
      await expect
        .poll(
          async () => (await mcp(cluster.url, 'tasks/get', { taskId }, 'alice')).result?.['status'],
        )
        .toBe('cancelled');
      expect(nodesThatServed(link, taskId).size).toBeGreaterThanOrEqual(2);
      expect(link.errors).toEqual([]);
    });
  });

  it('T14, T15: a SIGKILL of the node running the jobs: another node carries each on from its checkpoint, every task completes once', async () => {
    const slow = await Promise.all(
      Array.from({ length: 4 }, () => startTask(cluster.url, 'slow_compute', { seconds: 6 })),
    );
    const deploy = await startTask(cluster.url, 'deploy_service', { service: 'cart' });
    // Wait until every slow job saved a checkpoint and the deploy, staged, waits for its approval.
    const current = async (taskId: string) => (await watcher.get(taskId))!;
    await expect
      .poll(
        async () => {
          const records = await Promise.all(slow.map(current));
          const d = await current(deploy);
          return records.every((r) => stepsDone(r) >= 1) && d.status === 'input_required';
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBe(true);

    // The victim: the node running the deploy job (a job runs where its task was created).
    const holderAtKill = new Map<string, string | undefined>();
    for (const taskId of [...slow, deploy])
      holderAtKill.set(taskId, (await current(taskId)).lease?.holder);
    const victimName = holderAtKill.get(deploy)!;
    const victim = cluster.nodes.find((n) => n.name === victimName)!;
    const orphans = [...holderAtKill]
      .filter(([, holder]) => holder === victimName)
      .map(([id]) => id);
    const checkpointAtKill = new Map(
      await Promise.all(slow.map(async (id) => [id, stepsDone(await current(id))] as const)),
    );
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBe('SIGKILL');
    // The approval, answered after the kill through whichever node the balancer picks.
    const answered = await mcp(cluster.url, 'tasks/update', {
      taskId: deploy,
      inputResponses: { approve_rollout: { action: 'accept', content: { approve: true } } },
    });
    expect(answered.error).toBeUndefined();

    // Every task completes, polled through the balancer (which skips the dead node).
    for (const taskId of [...slow, deploy])
      await expect
        .poll(async () => (await mcp(cluster.url, 'tasks/get', { taskId })).result?.['status'], {
          timeout: 30_000,
          interval: 200,
        })
        .toBe('completed');

    for (const taskId of [...slow, deploy]) {
      const final = await current(taskId);
      const wasOrphan = orphans.includes(taskId);
      // Taken over once if its node died, never if its node lived: no job ran twice at once.
      expect(final.resumes ?? 0, taskId).toBe(wasOrphan ? 1 : 0);
      const seen = history.get(taskId) ?? [];
      const holders = new Set(seen.map((r) => r.lease?.holder).filter(Boolean));
      if (wasOrphan) expect([...holders].some((h) => h !== victimName)).toBe(true);
      else expect([...holders]).toEqual([holderAtKill.get(taskId)]);
      // Completed once: after the first completed version, nothing changed.
      const firstDone = seen.findIndex((r) => r.status === 'completed');
      expect(seen.slice(firstDone).every((r) => r.status === 'completed')).toBe(true);
    }
    for (const taskId of slow) {
      // Carried on from the checkpoint: the steps saved never go back (a restart would save 1 again).
      const steps = (history.get(taskId) ?? []).map(stepsDone);
      expect(
        steps.every((s, i) => i === 0 || s >= steps[i - 1]!),
        `${taskId}: ${steps}`,
      ).toBe(true);
      expect(steps.at(-1)).toBe(6);
      expect(Math.min(...steps.filter((s) => s > 0))).toBeLessThanOrEqual(
        checkpointAtKill.get(taskId)!,
      );
      const text = (await current(taskId)).result?.content[0];
      expect(text).toMatchObject({ text: 'Computed in 6 s' });
    }
    // The approval was asked for once (the resumed run waited on the key the dead node issued,
    // never a new one) and taken once: nothing is left to take, and the roll-out went on.
    const d = await current(deploy);
    expect(d.issuedInputKeys).toEqual(['approve_rollout']);
    expect(d.inputResponses).toEqual({});
    expect(Object.keys(d.takenResponses ?? {})).toEqual(['approve_rollout']);
    expect(d.checkpoint?.data).toEqual({ hostsLive: 10 });
    expect(d.result?.content[0]).toMatchObject({ text: expect.stringContaining('cart') });
    // No task lost: all of them are still stored.
    expect((await watcher.all()).length).toBeGreaterThanOrEqual(slow.length + 2);
  });
});
